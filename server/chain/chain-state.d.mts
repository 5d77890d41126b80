/** Types of chain-state.mjs (plain JavaScript so the anvil guard runs without a TypeScript loader). */

export interface ChainLock {
  /** A random id per server start: only the guard started with it may write the state file. */
  owner: string;
  stateFile: string;
  port: number;
  serverPid: number;
  guardPid?: number;
  anvilPid?: number;
  startedAt: string;
}

export function lockFileOf(stateFile: string): string;
export function readLock(lockFile: string): Partial<ChainLock> | null;
export function writeFileAtomic(file: string, data: string | Uint8Array): void;
export function rpc(rpcUrl: string, method: string, params: unknown[], timeoutMs?: number): Promise<unknown>;
export function saveChainState(rpcUrl: string, stateFile: string): Promise<{ block: number; hash: string }>;
