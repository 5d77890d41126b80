/**
 * Local mode's sponsored gas: the ERC-4337 EntryPoint (v0.8, eth-infinitism's compiled artifact), a
 * factory of smart accounts for test wallets (DemoSmartAccount: an owner key, ERC-1271) and the
 * shop's own verifying paymaster (ShopPaymaster) with a deposit, on the embedded chain, so the
 * local shop pays smart wallets' gas exactly as a live shop configured with PAYMASTER_ADDRESS and
 * PAYMASTER_SIGNER_KEY does.
 *
 * The EntryPoint and the factory go through the chain's CREATE2 deployer (anvil has it at its
 * usual address), so their addresses follow from their bytecode alone: a wallet on the same chain
 * finds them without asking the shop (localEntryPoint, localAccountFactory). The EntryPoint goes
 * with the salt it was deployed with on every public chain, so it lands at its canonical address,
 * the one ENTRYPOINT_ADDRESS defaults to, where bundlers look for v0.8. The
 * paymaster's signer key is made on the first start and kept in app_state with its address; a
 * chain that lost its state gets all three again. eth-infinitism's Simple7702Account (the
 * EntryPoint v0.8 delegate of EIP-7702 accounts) goes through the deployer too, with salt zero:
 * the address of its public deployment, which the shop's list of known wallets names on Base too.
 * The paymaster is staked in the EntryPoint (1 ETH, one day's unstake delay), as a bundler that
 * enforces ERC-7562's storage rules needs it to be: it reads the token balance of an account the
 * same operation deploys.
 */
import { createRequire } from 'node:module';
import {
  AbiCoder,
  concat,
  Contract,
  ContractFactory,
  getAddress,
  getCreate2Address,
  JsonRpcProvider,
  keccak256,
  parseEther,
  Wallet,
  ZeroHash,
  type Signer,
} from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Db } from '../db';
import { getState, setState } from '../lib/app-state';
import type { Logger } from '../lib/logger';
import accounts from './contracts/demo-smart-account.json' with { type: 'json' };
import paymasterArtifact from './contracts/shop-paymaster.json' with { type: 'json' };
import { DEV_ACCOUNTS } from './local-chain';
import { deployed, mined } from './mined';

/** The deterministic-deployment proxy anvil (like most chains) has: CREATE2 of calldata `salt ‖ initCode`. */
const CREATE2_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
const DEPLOY_GAS = 12_000_000n;
/** What the shop deposits in the EntryPoint for its paymaster on a new chain. */
export const LOCAL_PAYMASTER_DEPOSIT = parseEther('10');

interface Artifact {
  abi: readonly object[];
  bytecode: string;
}
// A package's JSON, read at run time (the build leaves packages as imports of node_modules).
const requirePackage = createRequire(import.meta.url);
const entryPointArtifact = requirePackage('@account-abstraction/contracts/artifacts/EntryPoint.json') as Artifact;
const simple7702Artifact = requirePackage('@account-abstraction/contracts/artifacts/Simple7702Account.json') as Artifact;
const factoryArtifact: Artifact = accounts.contracts.DemoSmartAccountFactory;
/** What local mode stakes for its paymaster, and for how long (ERC-7562's least unstake delay). */
const LOCAL_PAYMASTER_STAKE = parseEther('1');
const UNSTAKE_DELAY_S = 86_400;

const entryPointInit = (): string => entryPointArtifact.bytecode;
const factoryInit = (entryPoint: string): string =>
  concat([factoryArtifact.bytecode, AbiCoder.defaultAbiCoder().encode(['address'], [entryPoint])]);
/** The salt of EntryPoint v0.8's deployment on public chains (with the artifact's bytecode: its canonical address). */
const ENTRYPOINT_SALT = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9';
const create2Address = (initCode: string, salt: string = ZeroHash) => getCreate2Address(CREATE2_DEPLOYER, salt, keccak256(initCode));

/** The local chain's EntryPoint: v0.8's canonical address. */
export function localEntryPoint(): string {
  return create2Address(entryPointInit(), ENTRYPOINT_SALT);
}

/**
 * @internal The local chain's factory of smart accounts (DemoSmartAccountFactory, bound to the
 * local EntryPoint), where the e2e smart wallet makes its account.
 */
export function localAccountFactory(): string {
  return create2Address(factoryInit(localEntryPoint()));
}

/** The smart accounts of the local chain, as the paymaster's list of known wallets names them. */
export interface LocalWallets {
  factories: string[];
  implementations: string[];
  proxyCodeHashes: string[];
}

export interface LocalPaymaster {
  /** ShopPaymaster's address. */
  address: string;
  /** The key whose signature ShopPaymaster accepts. */
  signerKey: string;
  entryPoint: string;
  /** True when this call deployed the paymaster (a new or reset chain). */
  deployed: boolean;
  /** The demo smart accounts (their factory, their implementation, the proxy they are) and the 7702 delegate. */
  wallets: LocalWallets;
}

/** The smart-account contracts of the local chain (and of the tests' chains), where a wallet computes them. */
export interface AccountContracts {
  entryPoint: string;
  /** DemoSmartAccountFactory. */
  factory: string;
  /** The DemoSmartAccount every one of the factory's accounts runs (behind its ERC-1967 proxy). */
  implementation: string;
  /** Simple7702Account, the EIP-7702 delegate. */
  delegate: string;
  /** All of them as the paymaster's list of known wallets names them. */
  wallets: LocalWallets;
}

/**
 * Puts the EntryPoint, the account factory and Simple7702Account on the chain of `provider` where
 * a wallet computes them (CREATE2), `deployerAddress` (an unlocked dev account) paying for those
 * not there yet; answers their addresses.
 */
export async function deployAccountContracts(provider: JsonRpcProvider, deployerAddress: string): Promise<AccountContracts> {
  const deployer = await provider.getSigner(deployerAddress);
  const hasCode = async (address: string, block?: number) => (await provider.getCode(address, block)) !== '0x';
  const viaCreate2 = async (initCode: string, salt: string = ZeroHash) => {
    const address = create2Address(initCode, salt);
    if (await hasCode(address)) return address;
    // A set gas limit: the node's estimate of a CREATE from inside the proxy can fall short (63/64 rule).
    const tx = await deployer.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]), gasLimit: DEPLOY_GAS });
    const receipt = await mined(tx);
    // Read at the receipt's block: anvil may answer 'latest' from the block before for a moment.
    if (!receipt || !(await hasCode(address, receipt.blockNumber)))
      throw new Error(`local chain: the CREATE2 deployment of ${address} left no code`);
    return address;
  };
  const entryPoint = await viaCreate2(entryPointInit(), ENTRYPOINT_SALT);
  const factory = await viaCreate2(factoryInit(entryPoint));
  const delegate = await viaCreate2(simple7702Artifact.bytecode);
  const implementation = getAddress(
    await new Contract(factory, factoryArtifact.abi as never, provider).getFunction('accountImplementation').staticCall(),
  );
  const wallets: LocalWallets = {
    factories: [factory],
    implementations: [implementation, delegate],
    proxyCodeHashes: [accounts.runtimeCodeHashes.ERC1967Proxy],
  };
  return { entryPoint, factory, implementation, delegate, wallets };
}

/**
 * Makes sure the EntryPoint, the account factory and the shop's paymaster (with its deposit) are on
 * the chain at `rpcUrl`, dev account #0 (the store wallet) paying; answers the paymaster's settings.
 */
export async function ensureLocalPaymaster(db: Db, rpcUrl: string, logger?: Logger): Promise<LocalPaymaster> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true });
  try {
    const deployer = await provider.getSigner(DEV_ACCOUNTS[0]);
    const hasCode = async (address: string) => (await provider.getCode(address)) !== '0x';
    const { entryPoint, wallets } = await deployAccountContracts(provider, DEV_ACCOUNTS[0]!);

    const known = await getState<{ address: string; signerKey: string }>(db, 'local_paymaster');
    if (known && (await hasCode(known.address))) return { ...known, entryPoint, deployed: false, wallets };

    const signer = Wallet.createRandom();
    const address = await deployShopPaymaster(deployer, {
      entryPoint,
      signer: signer.address,
      deposit: LOCAL_PAYMASTER_DEPOSIT,
      stake: LOCAL_PAYMASTER_STAKE,
    });
    await setState(db, 'local_paymaster', { address, signerKey: signer.privateKey });
    logger?.debug({ address, entryPoint }, 'local paymaster deployed');
    return { address, signerKey: signer.privateKey, entryPoint, deployed: true, wallets };
  } finally {
    provider.destroy();
  }
}

/**
 * Deploys ShopPaymaster for `entryPoint`, accepting `signer`'s signatures, and deposits `deposit`
 * wei for it in the EntryPoint (and stakes `stake`, when given), `deployer` paying; answers its
 * address. (The tests' paymasters are made the same way.)
 */
export async function deployShopPaymaster(
  deployer: Signer,
  opts: { entryPoint: string; signer: string; deposit: bigint; stake?: bigint },
): Promise<string> {
  const contract = await new ContractFactory(paymasterArtifact.abi, paymasterArtifact.bytecode, deployer).deploy(
    opts.entryPoint,
    opts.signer,
  );
  await deployed(contract);
  const address = getAddress(await contract.getAddress());
  const entryPoint = new Contract(opts.entryPoint, ['function depositTo(address account) payable'], deployer);
  await mined(entryPoint.getFunction('depositTo')(address, { value: opts.deposit }));
  if (opts.stake) {
    const paymaster = new Contract(address, paymasterArtifact.abi, deployer);
    await mined(paymaster.getFunction('addStake')(UNSTAKE_DELAY_S, { value: opts.stake }));
  }
  return address;
}
