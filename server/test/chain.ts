/**
 * The real chain for integration tests and benchmarks: one anvil node per test file, and token
 * transfers sent the way a wallet sends them (ERC-20 transfer, gas limit 150000, so a transfer
 * that will revert is still mined instead of being refused at estimation).
 */
import { Interface, JsonRpcProvider, type TransactionResponse } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import { startLocalChain, type LocalChain } from '../chain/local-chain';

const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

export interface TestChain {
  chain: LocalChain;
  provider: JsonRpcProvider;
}

export async function startTestChain(): Promise<TestChain & { stop(): Promise<void> }> {
  const chain = await startLocalChain({ port: 0 });
  const provider = new JsonRpcProvider(chain.rpcUrl, BASE_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  return {
    chain,
    provider,
    async stop() {
      provider.destroy();
      await chain.stop();
    },
  };
}

/** Sends `value` of `token` from an unlocked dev account to `to`; resolves once sent (not mined). */
export async function sendTokenTransfer(
  provider: JsonRpcProvider,
  from: string,
  transfer: { token: string; to: string; value: bigint; nonce?: number },
): Promise<TransactionResponse> {
  const signer = await provider.getSigner(from);
  return signer.sendTransaction({
    to: transfer.token,
    data: ERC20.encodeFunctionData('transfer', [transfer.to, transfer.value]),
    gasLimit: 150_000,
    nonce: transfer.nonce,
  });
}
