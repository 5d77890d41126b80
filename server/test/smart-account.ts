/**
 * Smart accounts on the test chain, as Base's smart wallets make them: the ERC-4337 EntryPoint
 * (v0.8, eth-infinitism's compiled artifact), a factory of DemoSmartAccounts (an owner key, ERC-1271),
 * and what such a wallet does: show its address before it exists, sign as it (ERC-1271 once
 * deployed, wrapped in ERC-6492 before), deploy, and send a call from it (its owner asks it to).
 */
import { AbiCoder, concat, Contract, getAddress, Interface, parseEther, type JsonRpcProvider } from 'ethers';
import artifact from '../chain/contracts/demo-smart-account.json';
import { DEV_ACCOUNTS } from '../chain/local-chain';
import { deployAccountContracts, deployShopPaymaster } from '../chain/local-paymaster';
import { entryPointAt } from './user-operations';
import { mined } from '../chain/mined';

/** What ends every ERC-6492 signature (the standard's magic bytes). */
const ERC6492_SUFFIX = '0x6492649264926492649264926492649264926492649264926492649264926492';
const ACCOUNT = new Interface(artifact.contracts.DemoSmartAccount.abi);
const FACTORY = new Interface(artifact.contracts.DemoSmartAccountFactory.abi);

export interface SmartAccounts {
  entryPoint: string;
  factory: string;
  /** The DemoSmartAccount every account's proxy runs (the factory's). */
  implementation: string;
  /** Simple7702Account, the delegate of EIP-7702 accounts (Base's, at its public address). */
  delegate: string;
  /** The account of `owner` (salt 0 unless given), deployed or not. */
  addressOf(owner: string, salt?: bigint): Promise<string>;
  /** Deploys the account of `owner`; answers its address. */
  deploy(owner: string, salt?: bigint): Promise<string>;
  /** Whether the account has code on chain. */
  deployed(account: string): Promise<boolean>;
  /** `owner`'s personal_sign of `message`: the account's ERC-1271 signature once it is deployed. */
  sign(owner: string, message: string): Promise<string>;
  /** The ERC-6492 signature of the account of `deployer` (the factory call that makes it), wrapping `inner`. */
  wrap6492(deployer: string, inner: string, salt?: bigint): string;
  /** Sends `data` to `to` from `account`, its owner `owner` paying the gas (account.execute). */
  execute(owner: string, account: string, call: { to: string; data: string }): Promise<void>;
}

/**
 * Puts the EntryPoint, the factory and Simple7702Account where local mode does (their CREATE2
 * addresses: the EntryPoint at v0.8's canonical one), from dev account `from`.
 */
export async function deploySmartAccounts(provider: JsonRpcProvider, from: string): Promise<SmartAccounts> {
  const deployer = await provider.getSigner(from);
  const contracts = await deployAccountContracts(provider, from);
  const { entryPoint, factory: factoryAddress } = contracts;
  const factory = new Contract(factoryAddress, FACTORY, provider);
  const createCall = (owner: string, salt: bigint) => FACTORY.encodeFunctionData('createAccount', [owner, salt]);
  return {
    entryPoint,
    factory: factoryAddress,
    implementation: contracts.implementation,
    delegate: contracts.delegate,
    addressOf: async (owner, salt = 0n) => getAddress(await factory.getFunction('getAddress').staticCall(owner, salt)),
    async deploy(owner, salt = 0n) {
      const tx = await deployer.sendTransaction({ to: factoryAddress, data: createCall(owner, salt) });
      await mined(tx);
      return getAddress(await factory.getFunction('getAddress').staticCall(owner, salt));
    },
    deployed: async (account) => (await provider.getCode(account)) !== '0x',
    sign: async (owner, message) => (await provider.getSigner(owner)).signMessage(message),
    wrap6492: (owner, inner, salt = 0n) =>
      concat([
        AbiCoder.defaultAbiCoder().encode(['address', 'bytes', 'bytes'], [factoryAddress, createCall(owner, salt), inner]),
        ERC6492_SUFFIX,
      ]),
    async execute(owner, account, call) {
      const signer = await provider.getSigner(owner);
      const tx = await signer.sendTransaction({ to: account, data: ACCOUNT.encodeFunctionData('execute', [call.to, 0n, call.data]) });
      await mined(tx);
    },
  };
}

/** The dev account that plays the bundler in the sponsored-payment tests (it submits handleOps; the paymaster's deposit refunds it). */
export const TEST_BUNDLER = DEV_ACCOUNTS[3]!;

/**
 * What sponsored payments need on the test chain: the EntryPoint and the account factory, the
 * EntryPoint as the bundler calls it, and a ShopPaymaster accepting `signer`'s signatures with
 * 1 ETH deposited (dev account #0 deploying and paying).
 */
export async function deploySponsorStack(provider: JsonRpcProvider, signer: string) {
  const accounts = await deploySmartAccounts(provider, DEV_ACCOUNTS[0]!);
  const entryPoint = entryPointAt(accounts.entryPoint, await provider.getSigner(TEST_BUNDLER));
  const paymaster = await deployShopPaymaster(await provider.getSigner(DEV_ACCOUNTS[0]!), {
    entryPoint: accounts.entryPoint,
    signer,
    deposit: parseEther('1'),
  });
  return { accounts, entryPoint, paymaster };
}

/**
 * The settings that make the shop sponsor these accounts (its list of known wallets names Base's
 * and the local chain's; the tests' factory is at an address of its own): the factory, the
 * implementation, and the proxy every account is (its runtime code's hash, from the artifact).
 */
export function knownWalletSettings(accounts: Pick<SmartAccounts, 'factory' | 'implementation'>): Record<string, string> {
  // Simple7702Account is on Base's list already, at the address deployAccountContracts puts it.
  return {
    PAYMASTER_ACCOUNT_FACTORIES: accounts.factory,
    PAYMASTER_ACCOUNT_IMPLEMENTATIONS: accounts.implementation,
    PAYMASTER_ACCOUNT_PROXY_CODEHASHES: artifact.runtimeCodeHashes.ERC1967Proxy,
  };
}

/** The settings of a shop whose own paymaster (of `deploySponsorStack`, signing with `signerKey`) sponsors these accounts. */
export function ownPaymasterSettings(stack: { accounts: SmartAccounts; paymaster: string }, signerKey: string): Record<string, string> {
  return {
    PAYMASTER_ADDRESS: stack.paymaster,
    PAYMASTER_SIGNER_KEY: signerKey,
    ENTRYPOINT_ADDRESS: stack.accounts.entryPoint,
    ...knownWalletSettings(stack.accounts),
  };
}

/** What POST /api/paymaster answers (ERC-7677), as the tests read it. */
export interface PaymasterAnswer {
  result?: {
    paymaster: string;
    paymasterData: string;
    paymasterVerificationGasLimit: string;
    paymasterPostOpGasLimit: string;
    isFinal?: boolean;
    sponsor?: { name: string };
  };
  error?: { code: number; message: string; data?: { reason: string } };
}
