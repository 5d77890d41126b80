/**
 * The shop's view of the chain: the few JSON-RPC reads payments need, raw (eth_*), so nothing is
 * cached between calls and a reorg or a new head is seen at once. It answers in the terms of
 * verify.ts (logs, receipts, the store's token and wallet) and only payments reads the chain, so
 * it lives here; `server/chain/` is the local dev chain and imports no module.
 */
import { JsonRpcProvider, zeroPadValue } from 'ethers';
import { TRANSFER_TOPIC, type RawLog, type ReceiptFacts } from './verify';

export interface ChainTarget {
  rpcUrl: string;
  chainId: number;
  tokenAddress: string;
  storeWallet: string;
  /**
   * The embedded local chain only: the newest block saved to its state file, once `head` is
   * saved or after a short wait. The shop treats blocks above it as not yet mined, so a crash
   * (which may lose unsaved blocks) can never take back a block a payment or the watcher's
   * cursor was recorded in.
   */
  savedHead?: (head: number) => Promise<number>;
}

export class ChainClient {
  readonly provider: JsonRpcProvider;

  constructor(readonly target: ChainTarget) {
    this.provider = new JsonRpcProvider(target.rpcUrl, target.chainId, { staticNetwork: true, batchMaxCount: 1 });
  }

  async chainId(): Promise<number> {
    return Number(await this.provider.send('eth_chainId', []));
  }

  async blockNumber(): Promise<number> {
    const head = Number(await this.provider.send('eth_blockNumber', []));
    if (!this.target.savedHead) return head;
    return Math.min(head, await this.target.savedHead(head));
  }

  async blockHash(n: number): Promise<string | null> {
    const block = await this.provider.send('eth_getBlockByNumber', [toQuantity(n), false]);
    return block?.hash ? String(block.hash).toLowerCase() : null;
  }

  /** Whether the node knows the transaction at all (mined or pending). */
  async transactionKnown(hash: string): Promise<boolean> {
    return (await this.provider.send('eth_getTransactionByHash', [hash])) != null;
  }

  async receipt(hash: string): Promise<ReceiptFacts | null> {
    const r = await this.provider.send('eth_getTransactionReceipt', [hash]);
    if (!r) return null;
    return {
      status: r.status == null ? null : Number(r.status),
      blockNumber: Number(r.blockNumber),
      logs: (r.logs as RpcLog[]).map(toRawLog),
    };
  }

  /** Transfer events of the token to the store wallet in [from, to]. */
  async storeTransferLogs(from: number, to: number): Promise<RawLog[]> {
    const logs: RpcLog[] = await this.provider.send('eth_getLogs', [
      {
        address: this.target.tokenAddress,
        topics: [TRANSFER_TOPIC, null, zeroPadValue(this.target.storeWallet, 32)],
        fromBlock: toQuantity(from),
        toBlock: toQuantity(to),
      },
    ]);
    return logs.map(toRawLog);
  }

  destroy(): void {
    this.provider.destroy();
  }
}

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  removed?: boolean;
}

const toQuantity = (n: number) => `0x${n.toString(16)}`;

function toRawLog(l: RpcLog): RawLog {
  return {
    address: l.address,
    topics: l.topics,
    data: l.data,
    logIndex: Number(l.logIndex),
    blockNumber: Number(l.blockNumber),
    blockHash: l.blockHash,
    transactionHash: l.transactionHash,
    removed: Boolean(l.removed),
  };
}
