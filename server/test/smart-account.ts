/**
 * Smart accounts on the test chain, as Base's smart wallets make them: the ERC-4337 EntryPoint
 * (v0.8, eth-infinitism's compiled artifact), a factory of DemoSmartAccounts (an owner key, ERC-1271),
 * and what such a wallet does: show its address before it exists, sign as it (ERC-1271 once
 * deployed, wrapped in ERC-6492 before), deploy, and send a call from it (its owner asks it to).
 */
import { AbiCoder, concat, Contract, ContractFactory, getAddress, Interface, parseEther, type JsonRpcProvider, type Signer } from 'ethers';
import entryPointArtifact from '@account-abstraction/contracts/artifacts/EntryPoint.json';
import artifact from '../chain/contracts/demo-smart-account.json';
import { DEV_ACCOUNTS } from '../chain/local-chain';
import { deployShopPaymaster } from '../chain/local-paymaster';
import { entryPointAt } from './user-operations';

/** What ends every ERC-6492 signature (the standard's magic bytes). */
const ERC6492_SUFFIX = '0x6492649264926492649264926492649264926492649264926492649264926492';
const ACCOUNT = new Interface(artifact.contracts.DemoSmartAccount.abi);
const FACTORY = new Interface(artifact.contracts.DemoSmartAccountFactory.abi);

export interface SmartAccounts {
  entryPoint: string;
  factory: string;
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

/** Deploys the EntryPoint and the factory from dev account `from`. */
export async function deploySmartAccounts(provider: JsonRpcProvider, from: string): Promise<SmartAccounts> {
  const deployer = await provider.getSigner(from);
  const entryPoint = await deployContract(deployer, entryPointArtifact.abi, entryPointArtifact.bytecode, []);
  const factoryAddress = await deployContract(
    deployer,
    artifact.contracts.DemoSmartAccountFactory.abi,
    artifact.contracts.DemoSmartAccountFactory.bytecode,
    [entryPoint],
  );
  const factory = new Contract(factoryAddress, FACTORY, provider);
  const createCall = (owner: string, salt: bigint) => FACTORY.encodeFunctionData('createAccount', [owner, salt]);
  return {
    entryPoint,
    factory: factoryAddress,
    addressOf: async (owner, salt = 0n) => getAddress(await factory.getFunction('getAddress').staticCall(owner, salt)),
    async deploy(owner, salt = 0n) {
      const tx = await deployer.sendTransaction({ to: factoryAddress, data: createCall(owner, salt) });
      await tx.wait();
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
      await tx.wait();
    },
  };
}

async function deployContract(signer: Signer, abi: readonly object[] | Interface, bytecode: string, args: unknown[]): Promise<string> {
  const contract = await new ContractFactory(abi as Interface, bytecode, signer).deploy(...args);
  await contract.waitForDeployment();
  return getAddress(await contract.getAddress());
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
