import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractFactory, JsonRpcProvider, parseEther } from 'ethers';
import artifact from './contracts/demo-pogs-token.json';
import { DEV_ACCOUNTS, startLocalChain, type LocalChain } from './local-chain';
import { deployed, mined, receiptOf } from './mined';

// Waiting for a transaction by asking for its receipt, on anvil, mining on its own (as the shop's
// local chain does) and by hand.
describe('mined(): a transaction waited for by its receipt', () => {
  let chain: LocalChain;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    chain = await startLocalChain({ port: 0 });
    provider = new JsonRpcProvider(chain.rpcUrl, 8453, { staticNetwork: true });
  });
  afterAll(async () => {
    provider?.destroy();
    await chain?.stop();
  });

  const payment = async () =>
    (await provider.getSigner(DEV_ACCOUNTS[1])).sendTransaction({ to: DEV_ACCOUNTS[2], value: parseEther('0.01') });

  it('answers with the receipt of a transaction mined before it asked, with no later block', async () => {
    const tx = await payment();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const head = await provider.getBlockNumber();
    const receipt = await mined(tx, { timeoutMs: 5_000 });
    expect(receipt.hash).toBe(tx.hash);
    expect(receipt.blockNumber).toBe(head);
    expect(await provider.getBlockNumber()).toBe(head);
  });

  it("answers where ethers' wait() never does: a transaction mined between the first ask and the first block poll", async () => {
    // The node mines the transaction right after the first ask finds no receipt, as anvil does on a
    // loaded machine; no other transaction comes, so no later block does either.
    class MinesAfterFirstAsk extends JsonRpcProvider {
      asked = false;
      override async getTransactionReceipt(hash: string) {
        const receipt = await super.getTransactionReceipt(hash);
        if (!receipt && !this.asked) {
          this.asked = true;
          await this.send('evm_mine', []);
        }
        return receipt;
      }
    }
    await provider.send('evm_setAutomine', [false]);
    const racing = new MinesAfterFirstAsk(chain.rpcUrl, 8453, { staticNetwork: true, pollingInterval: 100 });
    try {
      const hash = (await payment()).hash;
      const tx = (await racing.getTransaction(hash))!;
      const outcome = await Promise.race([
        // eslint-disable-next-line no-restricted-syntax -- the wait this file's helper replaces, shown hanging
        tx.wait().then(() => 'mined'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2_000)),
      ]);
      expect(outcome).toBe('still waiting after 2 s');
      expect((await mined(tx, { timeoutMs: 5_000 })).hash).toBe(hash);
    } finally {
      racing.destroy();
      await provider.send('evm_setAutomine', [true]);
    }
  });

  it('waits while the transaction is pending and answers once a block holds it', async () => {
    await provider.send('evm_setAutomine', [false]);
    try {
      const tx = await payment();
      let settled = false;
      const waiting = mined(tx, { timeoutMs: 10_000 }).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await provider.send('evm_mine', []);
      expect((await waiting).hash).toBe(tx.hash);
    } finally {
      await provider.send('evm_setAutomine', [true]);
    }
  });

  it('gives up after its time with the hash in the message, and a reverted transaction throws where receiptOf answers', async () => {
    await provider.send('evm_setAutomine', [false]);
    let pending: string;
    try {
      pending = (await payment()).hash;
      await expect(receiptOf(provider, pending, { timeoutMs: 300 })).rejects.toThrow(`transaction ${pending} was not mined within 0.3 s`);
    } finally {
      await provider.send('evm_setAutomine', [true]);
      await provider.send('evm_mine', []);
    }
    // A transfer of more tokens than the sender holds, sent with a gas limit so the node takes it.
    const token = await deployed(
      new ContractFactory(artifact.abi, artifact.bytecode, await provider.getSigner(DEV_ACCOUNTS[0])).deploy([DEV_ACCOUNTS[1]], 10n),
    );
    expect(await provider.getCode(await token.getAddress())).not.toBe('0x');
    const failing = await (
      await provider.getSigner(DEV_ACCOUNTS[3])
    ).sendTransaction({
      to: await token.getAddress(),
      data: token.interface.encodeFunctionData('transfer', [DEV_ACCOUNTS[2], 11n]),
      gasLimit: 100_000n,
    });
    await expect(mined(failing)).rejects.toThrow(`transaction ${failing.hash} reverted`);
    expect((await receiptOf(provider, failing.hash)).status).toBe(0);
  });
});
