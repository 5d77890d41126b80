/**
 * The shop's verifying paymaster contract on a real EntryPoint (v0.8, on anvil) with the service's
 * signature (sign.ts): the hash it signs is the contract's; an operation changed after signing, or
 * signed by another key, is refused by the EntryPoint; and what can change after the signature is
 * checked again when the operation runs: the account must still hold the amount, and still have
 * the code the service saw.
 */
import { Contract, ContractFactory, keccak256, parseEther, Wallet, ZeroHash } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import tokenArtifact from '../../chain/contracts/demo-pogs-token.json';
import paymasterArtifact from '../../chain/contracts/shop-paymaster.json';
import { deployShopPaymaster } from '../../chain/local-paymaster';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { deploySmartAccounts, type SmartAccounts } from '../../test/smart-account';
import { entryPointAt, pack, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import { paymasterData, sponsorshipHash, type PaymasterGas, type SignedPayment } from './sign';
import type { UserOperation } from './user-operation';
import { mined } from '../../chain/mined';

const testChain = useTestChain();
const GAS: PaymasterGas = { verificationGasLimit: 60_000n, postOpGasLimit: 0n };
const STORE = DEV_ACCOUNTS[2]!;
const AMOUNT = 5n * 10n ** 18n;

describe('the shop paymaster contract', () => {
  let entryPoint: Contract;
  let paymaster: string;
  let accounts: SmartAccounts;
  let account: string;
  let token: string;
  const signer = Wallet.createRandom();
  const owner = Wallet.createRandom();

  beforeAll(async () => {
    const funder = await testChain.provider.getSigner(DEV_ACCOUNTS[1]!);
    accounts = await deploySmartAccounts(testChain.provider, DEV_ACCOUNTS[0]!);
    entryPoint = entryPointAt(accounts.entryPoint, funder);
    paymaster = await deployShopPaymaster(funder, { entryPoint: accounts.entryPoint, signer: signer.address, deposit: parseEther('1') });
    const deployed = await new ContractFactory(tokenArtifact.abi, tokenArtifact.bytecode, funder).deploy([DEV_ACCOUNTS[1]!], AMOUNT * 100n);
    token = await deployed.getAddress();
    account = await accounts.deploy(owner.address);
    await mined(sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token, to: account, value: AMOUNT }));
  });

  const now = () => Math.floor(Date.now() / 1000);
  const codeHashOf = async (address: string) => keccak256(await testChain.provider.getCode(address));
  /** An operation signed by `shop` (the service's key unless given) for `payment`, packed; `change` alters it after signing. */
  async function signed(
    opts: { shop?: Pick<Wallet, 'signMessage'>; payment?: Partial<SignedPayment>; change?: (op: UserOperation) => void } = {},
  ) {
    const op = await userOperation(entryPoint, account, transferCall(token, STORE, AMOUNT));
    const window = { validUntil: now() + 600, validAfter: now() - 60 };
    const payment: SignedPayment = { token, amount: AMOUNT, codeHash: await codeHashOf(account), ...opts.payment };
    const data = await paymasterData(op, { chainId: 8453, paymaster, gas: GAS, signer: opts.shop ?? signer }, window, payment);
    opts.change?.(op);
    const packed = pack(op, { paymaster, paymasterVerificationGasLimit: '0xea60', paymasterPostOpGasLimit: '0x0', paymasterData: data });
    packed.signature = owner.signingKey.sign(await entryPoint.getFunction('getUserOpHash')(packed)).serialized;
    return { op, packed, window, payment };
  }

  /** The EntryPoint's reason for refusing `packed` (its FailedOp error, and the paymaster's own words), or null when it would run it. */
  async function failedOp(packed: unknown): Promise<string | null> {
    try {
      await entryPoint.getFunction('handleOps').staticCall([packed], STORE);
      return null;
    } catch (err) {
      const parsed = entryPoint.interface.parseError((err as { data?: string }).data ?? '0x');
      if (parsed?.name === 'FailedOpWithRevert') {
        return `${String(parsed.args[1])} ${new Contract(paymaster, ['error Error(string)']).interface.parseError(parsed.args[2])?.args[0]}`;
      }
      return parsed?.name === 'FailedOp' ? String(parsed.args[1]) : String(err);
    }
  }

  it('signs the hash the contract computes', async () => {
    const { op, packed, window, payment } = await signed();
    const contract = new Contract(paymaster, paymasterArtifact.abi, testChain.provider);
    expect(
      await contract.getFunction('getHash')(packed, window.validUntil, window.validAfter, [
        payment.token,
        payment.amount,
        payment.codeHash,
      ]),
    ).toBe(sponsorshipHash(op, { chainId: 8453, paymaster, gas: GAS }, window, payment));
    expect(await failedOp(packed)).toBeNull();
  });

  it('is refused by the EntryPoint when the operation changed after the shop signed it, or another key signed it', async () => {
    const changed = await signed({
      change: (op) => {
        op.callData = transferCall(token, DEV_ACCOUNTS[0]!, 1n);
      },
    });
    expect(await failedOp(changed.packed)).toMatch(/^AA34 signature error/);
    const stranger = await signed({ shop: Wallet.createRandom() });
    expect(await failedOp(stranger.packed)).toMatch(/^AA34 signature error/);
  });

  it('refuses, when the operation runs, an account that no longer holds the amount, or whose code is not what the shop saw', async () => {
    // More than the account holds: as if its POGS moved away after the signature.
    const moved = await signed({ payment: { amount: AMOUNT + 1n } });
    expect(await failedOp(moved.packed)).toMatch(/^AA33 reverted ShopPaymaster: the account no longer holds the amount/);
    const recoded = await signed({ payment: { codeHash: keccak256('0x01') } });
    expect(await failedOp(recoded.packed)).toMatch(/^AA33 reverted ShopPaymaster: the account's code changed/);
    // Zero: the operation deploys the account itself (nothing else can be in its place).
    expect(await failedOp((await signed({ payment: { codeHash: ZeroHash } })).packed)).toBeNull();
  });
});
