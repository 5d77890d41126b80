/**
 * Local mode's demo $POGS: deployed once on the embedded chain from dev account #0 (which is
 * also the store wallet), with a balance for every buyer-side dev account, including the Demo
 * Wallet. Its address is remembered in app_state and checked on every start; a chain that lost
 * its state gets a fresh deployment.
 */
import { ContractFactory, JsonRpcProvider, parseUnits } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Db } from '../db';
import type { Logger } from '../lib/logger';
import { getState, setState } from '../lib/app-state';
import artifact from './contracts/demo-pogs-token.json';
import { DEV_ACCOUNTS } from './local-chain';
import { deployed } from './mined';

/** Receives payments in local mode. */
export const LOCAL_STORE_WALLET = DEV_ACCOUNTS[0];
/** Every buyer-side dev account (the Demo Wallet is #1) starts with this many POGS. */
export const DEMO_BALANCE = parseUnits('1000000', 18);

export interface LocalToken {
  tokenAddress: string;
  storeWallet: string;
  /** True when this call deployed it (a new or reset chain). */
  deployed: boolean;
}

export async function ensureDemoToken(db: Db, rpcUrl: string, logger?: Logger): Promise<LocalToken> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true });
  try {
    const known = await getState<{ address: string; rpcUrl: string }>(db, 'local_demo_token');
    if (known && (await provider.getCode(known.address)) !== '0x') {
      return { tokenAddress: known.address, storeWallet: LOCAL_STORE_WALLET, deployed: false };
    }
    const deployer = await provider.getSigner(LOCAL_STORE_WALLET);
    const factory = new ContractFactory(artifact.abi, artifact.bytecode, deployer);
    const contract = await factory.deploy(DEV_ACCOUNTS.slice(1), DEMO_BALANCE);
    await deployed(contract);
    const address = await contract.getAddress();
    await setState(db, 'local_demo_token', { address, rpcUrl });
    logger?.debug({ address }, 'demo POGS deployed');
    return { tokenAddress: address, storeWallet: LOCAL_STORE_WALLET, deployed: true };
  } finally {
    provider.destroy();
  }
}
