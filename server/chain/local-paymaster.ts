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
 * chain that lost its state gets all three again.
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
const entryPointArtifact = createRequire(import.meta.url)('@account-abstraction/contracts/artifacts/EntryPoint.json') as Artifact;
const factoryArtifact: Artifact = accounts.contracts.DemoSmartAccountFactory;

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

export interface LocalPaymaster {
  /** ShopPaymaster's address. */
  address: string;
  /** The key whose signature ShopPaymaster accepts. */
  signerKey: string;
  entryPoint: string;
  /** True when this call deployed the paymaster (a new or reset chain). */
  deployed: boolean;
}

/**
 * Makes sure the EntryPoint, the account factory and the shop's paymaster (with its deposit) are on
 * the chain at `rpcUrl`, dev account #0 (the store wallet) paying; answers the paymaster's settings.
 */
export async function ensureLocalPaymaster(db: Db, rpcUrl: string, logger?: Logger): Promise<LocalPaymaster> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true });
  try {
    const deployer = await provider.getSigner(DEV_ACCOUNTS[0]);
    const hasCode = async (address: string, block?: number) => (await provider.getCode(address, block)) !== '0x';
    const viaCreate2 = async (initCode: string, salt: string = ZeroHash) => {
      const address = create2Address(initCode, salt);
      if (await hasCode(address)) return address;
      // A set gas limit: the node's estimate of a CREATE from inside the proxy can fall short (63/64 rule).
      const tx = await deployer.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]), gasLimit: DEPLOY_GAS });
      const receipt = await tx.wait();
      // Read at the receipt's block: anvil may answer 'latest' from the block before for a moment.
      if (!receipt || !(await hasCode(address, receipt.blockNumber)))
        throw new Error(`local chain: the CREATE2 deployment of ${address} left no code`);
      return address;
    };
    const entryPoint = await viaCreate2(entryPointInit(), ENTRYPOINT_SALT);
    await viaCreate2(factoryInit(entryPoint));

    const known = await getState<{ address: string; signerKey: string }>(db, 'local_paymaster');
    if (known && (await hasCode(known.address))) return { ...known, entryPoint, deployed: false };

    const signer = Wallet.createRandom();
    const address = await deployShopPaymaster(deployer, { entryPoint, signer: signer.address, deposit: LOCAL_PAYMASTER_DEPOSIT });
    await setState(db, 'local_paymaster', { address, signerKey: signer.privateKey });
    logger?.debug({ address, entryPoint }, 'local paymaster deployed');
    return { address, signerKey: signer.privateKey, entryPoint, deployed: true };
  } finally {
    provider.destroy();
  }
}

/**
 * Deploys ShopPaymaster for `entryPoint`, accepting `signer`'s signatures, and deposits `deposit`
 * wei for it in the EntryPoint, `deployer` paying; answers its address. (The tests' paymasters
 * are made the same way.)
 */
export async function deployShopPaymaster(
  deployer: Signer,
  opts: { entryPoint: string; signer: string; deposit: bigint },
): Promise<string> {
  const contract = await new ContractFactory(paymasterArtifact.abi, paymasterArtifact.bytecode, deployer).deploy(
    opts.entryPoint,
    opts.signer,
  );
  await contract.waitForDeployment();
  const address = getAddress(await contract.getAddress());
  const entryPoint = new Contract(opts.entryPoint, ['function depositTo(address account) payable'], deployer);
  await (await entryPoint.getFunction('depositTo')(address, { value: opts.deposit })).wait();
  return address;
}
