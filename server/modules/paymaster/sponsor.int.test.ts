/**
 * The shop's verifying paymaster contract on a real EntryPoint (v0.8, on anvil) with the service's
 * signature (sign.ts): the hash it signs is the contract's; an operation changed after signing, or
 * signed by another key, is refused by the EntryPoint.
 */
import { Contract, parseEther, Wallet } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import paymasterArtifact from '../../chain/contracts/shop-paymaster.json';
import { deployShopPaymaster } from '../../chain/local-paymaster';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { deploySmartAccounts } from '../../test/smart-account';
import { entryPointAt, pack, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import { paymasterData, sponsorshipHash, type PaymasterGas } from './sign';
import type { UserOperation } from './user-operation';

const testChain = useTestChain();
const GAS: PaymasterGas = { verificationGasLimit: 60_000n, postOpGasLimit: 0n };
const TOKEN = DEV_ACCOUNTS[3]!; // any address: nothing is executed
const STORE = DEV_ACCOUNTS[2]!;

describe('the shop paymaster contract', () => {
  let entryPoint: Contract;
  let paymaster: string;
  let account: string;
  const signer = Wallet.createRandom();
  const owner = Wallet.createRandom();

  beforeAll(async () => {
    const funder = await testChain.provider.getSigner(DEV_ACCOUNTS[1]!);
    const accounts = await deploySmartAccounts(testChain.provider, DEV_ACCOUNTS[0]!);
    entryPoint = entryPointAt(accounts.entryPoint, funder);
    paymaster = await deployShopPaymaster(funder, { entryPoint: accounts.entryPoint, signer: signer.address, deposit: parseEther('1') });
    account = await accounts.deploy(owner.address);
  });

  const now = () => Math.floor(Date.now() / 1000);
  /** An operation signed by `shop` (the service's key unless given), packed; `change` alters it after signing. */
  async function signed(shop: Pick<Wallet, 'signMessage'> = signer, change?: (op: UserOperation) => void) {
    const op = await userOperation(entryPoint, account, transferCall(TOKEN, STORE, 1n));
    const window = { validUntil: now() + 600, validAfter: now() - 60 };
    const data = await paymasterData(op, { chainId: 8453, paymaster, gas: GAS, signer: shop }, window);
    change?.(op);
    const packed = pack(op, { paymaster, paymasterVerificationGasLimit: '0xea60', paymasterPostOpGasLimit: '0x0', paymasterData: data });
    packed.signature = owner.signingKey.sign(await entryPoint.getFunction('getUserOpHash')(packed)).serialized;
    return { op, packed, window };
  }

  /** The EntryPoint's reason for refusing `packed` (its FailedOp error), or null when it would run it. */
  async function failedOp(packed: unknown): Promise<string | null> {
    try {
      await entryPoint.getFunction('handleOps').staticCall([packed], STORE);
      return null;
    } catch (err) {
      const parsed = entryPoint.interface.parseError((err as { data?: string }).data ?? '0x');
      return parsed?.name === 'FailedOp' ? String(parsed.args[1]) : String(err);
    }
  }

  it('signs the hash the contract computes', async () => {
    const { op, packed, window } = await signed();
    const contract = new Contract(paymaster, paymasterArtifact.abi, testChain.provider);
    expect(await contract.getFunction('getHash')(packed, window.validUntil, window.validAfter)).toBe(
      sponsorshipHash(op, { chainId: 8453, paymaster, gas: GAS }, window),
    );
    expect(await failedOp(packed)).toBeNull();
  });

  it('is refused by the EntryPoint when the operation changed after the shop signed it, or another key signed it', async () => {
    const changed = await signed(signer, (op) => {
      op.callData = transferCall(TOKEN, DEV_ACCOUNTS[0]!, 1n);
    });
    expect(await failedOp(changed.packed)).toMatch(/^AA34 signature error/);
    const stranger = await signed(Wallet.createRandom());
    expect(await failedOp(stranger.packed)).toMatch(/^AA34 signature error/);
  });
});
