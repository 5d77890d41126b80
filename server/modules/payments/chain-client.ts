/**
 * The shop's view of the chain: the few JSON-RPC reads payments need, raw (eth_*), so nothing is
 * cached between calls and a reorg or a new head is seen at once. It answers in the terms of
 * verify.ts (logs, receipts, the store's token and wallet) and only payments reads the chain, so
 * it lives here; `server/chain/` is the local dev chain and imports no module.
 *
 * Every call has a timeout (`ChainTarget.timeoutMs`), and an RPC that does not answer (a timeout,
 * a refused or dropped connection, HTTP 5xx, rate limiting that outlasts the timeout) is an
 * `UnavailableError` naming the RPC's host only: its URL may carry an API key. An error the node
 * answered (a JSON-RPC error) is not one.
 */
import { FetchRequest, isError, JsonRpcProvider, zeroPadValue, type FetchGetUrlFunc } from 'ethers';
import { formatDuration } from '../../lib/duration';
import { UnavailableError } from '../../lib/unavailable';
import { TRANSFER_TOPIC, type RawLog, type ReceiptFacts } from './verify';

/** How long a chain call may take when the target does not say. */
const DEFAULT_TIMEOUT_MS = 10_000;

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
  /**
   * How long one call to the RPC may take, in ms (default 10 s): connecting, ethers' retries of a
   * rate-limited answer and reading the answer included. Also bounds `withinTimeout`.
   */
  timeoutMs?: number;
}

export class ChainClient {
  /**
   * The RPC as ethers sees it, with the same timeout (the live checks read the token through it);
   * its failures are ethers' errors, or an UnavailableError when the RPC did not answer.
   */
  readonly provider: JsonRpcProvider;
  private readonly timeoutMs: number;
  /** Names the RPC in errors and logs: "chain RPC <host>", never the URL. */
  private readonly dependency: string;

  constructor(readonly target: ChainTarget) {
    this.timeoutMs = target.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(this.timeoutMs > 0)) throw new Error(`the chain RPC timeout must be positive, not ${this.timeoutMs}`);
    this.dependency = `chain RPC ${new URL(target.rpcUrl).host}`;
    const request = new FetchRequest(target.rpcUrl);
    request.timeout = this.timeoutMs;
    request.getUrlFunc = getUrlWithin(this.dependency);
    this.provider = new JsonRpcProvider(request, target.chainId, { staticNetwork: true, batchMaxCount: 1 });
  }

  /**
   * Runs `work` (several calls in a row) within one timeout in all: a request that asks the chain
   * a few things answers within the timeout when the RPC stalls, not once per call. The calls
   * still under way when it gives up end at their own timeout.
   */
  withinTimeout<T>(work: () => Promise<T>): Promise<T> {
    return raceTimeout(work(), this.timeoutMs, () => this.timedOut());
  }

  /**
   * What the chain says of a transaction, all within one timeout: its receipt (null while pending
   * or unknown), whether the node knows it at all, and the head, read after the receipt so that it
   * is never older than the receipt's block.
   */
  transactionFacts(hash: string): Promise<{ receipt: ReceiptFacts | null; known: boolean; head: number }> {
    return this.withinTimeout(async () => {
      const receipt = await this.receipt(hash);
      const [known, head] = await Promise.all([receipt ? true : this.transactionKnown(hash), this.blockNumber()]);
      return { receipt, known, head };
    });
  }

  async chainId(): Promise<number> {
    return Number(await this.send('eth_chainId', []));
  }

  async blockNumber(): Promise<number> {
    const head = Number(await this.send('eth_blockNumber', []));
    if (!this.target.savedHead) return head;
    return Math.min(head, await this.target.savedHead(head));
  }

  /** The node's newest block and its time in seconds (not bounded by the local chain's saved head). */
  async latestBlock(): Promise<{ number: number; timestamp: number }> {
    const block = await this.send('eth_getBlockByNumber', ['latest', false]);
    return { number: Number(block.number), timestamp: Number(block.timestamp) };
  }

  async blockHash(n: number): Promise<string | null> {
    const block = await this.send('eth_getBlockByNumber', [toQuantity(n), false]);
    return block?.hash ? String(block.hash).toLowerCase() : null;
  }

  /** Whether the node knows the transaction at all (mined or pending). */
  async transactionKnown(hash: string): Promise<boolean> {
    return (await this.send('eth_getTransactionByHash', [hash])) != null;
  }

  /** The transaction as the node gives it (its sender, its callee, the ETH it sent), or null when unknown. */
  async transaction(hash: string): Promise<{ hash: string; from: string; to: string | null; value: bigint } | null> {
    const t = await this.send('eth_getTransactionByHash', [hash]);
    if (!t) return null;
    return {
      hash: String(t.hash).toLowerCase(),
      from: String(t.from).toLowerCase(),
      to: t.to ? String(t.to).toLowerCase() : null,
      value: BigInt(t.value),
    };
  }

  async receipt(hash: string): Promise<ReceiptFacts | null> {
    const r = await this.send('eth_getTransactionReceipt', [hash]);
    if (!r) return null;
    return {
      status: r.status == null ? null : Number(r.status),
      blockNumber: Number(r.blockNumber),
      logs: (r.logs as RpcLog[]).map(toRawLog),
    };
  }

  /** Transfer events of the token to the store wallet in [from, to]. */
  async storeTransferLogs(from: number, to: number): Promise<RawLog[]> {
    const logs: RpcLog[] = await this.send('eth_getLogs', [
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

  /**
   * One JSON-RPC call, given up after the timeout even while ethers is still retrying a
   * rate-limited answer; an RPC that did not answer becomes an UnavailableError. (Sign-in asks
   * smart accounts' signatures through it.)
   */
  readonly request = (method: string, params: unknown[]) => this.send(method, params);

  private async send(method: string, params: unknown[]) {
    try {
      return await raceTimeout(this.provider.send(method, params), this.timeoutMs, () => this.timedOut());
    } catch (err) {
      throw this.explain(err);
    }
  }

  private timedOut(): UnavailableError {
    return new UnavailableError(this.dependency, `timeout after ${formatDuration(this.timeoutMs)}`, 'chain');
  }

  /** What an error of ethers' stands for: an outage (UnavailableError), or as it is (a JSON-RPC error the node answered). */
  private explain(err: unknown): unknown {
    if (err instanceof UnavailableError) return err;
    // ethers' own deadline, between its retries of a rate-limited answer.
    if (isError(err, 'TIMEOUT')) return this.timedOut();
    // Still rate limited when ethers stopped retrying (it answers 599 then).
    const status = isError(err, 'SERVER_ERROR') ? err.response?.statusCode : undefined;
    if (status === 429 || status === 599) return new UnavailableError(this.dependency, 'rate limited (HTTP 429)', 'chain');
    return err;
  }
}

/**
 * How ethers' requests reach the RPC: Node's fetch, given up (and its connection closed) at the
 * request's timeout. ethers' own Node transport only times out an idle socket and leaves it open,
 * so every call to a hung RPC would keep a connection for good. No answer, a dropped connection or
 * HTTP 5xx is an UnavailableError; 429 goes back to ethers, which retries it with back-off; any
 * other HTTP error is a plain Error naming the host (ethers' would quote the URL).
 */
function getUrlWithin(dependency: string): FetchGetUrlFunc {
  return async (req) => {
    // fetch sets the length, and asks for (and decodes) compressed answers itself.
    const { 'accept-encoding': _encoding, 'content-length': _length, ...headers } = req.headers;
    const signal = AbortSignal.timeout(req.timeout);
    const noAnswer = (err: unknown) =>
      new UnavailableError(dependency, signal.aborted ? `timeout after ${formatDuration(req.timeout)}` : connectionFailure(err), 'chain');
    let res: Response;
    try {
      res = await fetch(req.url, { method: req.method, headers, body: req.body && new Uint8Array(req.body), signal });
    } catch (err) {
      throw noAnswer(err);
    }
    if (res.status >= 400 && res.status !== 429) {
      await res.body?.cancel();
      if (res.status >= 500) throw new UnavailableError(dependency, `HTTP ${res.status}`, 'chain');
      // Refused (a wrong or revoked key, say): not an outage. Said without the URL, which
      // ethers' own error for it would quote.
      throw new Error(`${dependency} refused the call: HTTP ${res.status} ${res.statusText}`.trim());
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw noAnswer(err); // the answer was cut off, or did not finish in time
    }
    return {
      statusCode: res.status,
      statusMessage: res.statusText,
      headers: Object.fromEntries(res.headers),
      body: body.length ? body : null,
    };
  };
}

/** Why fetch got no answer, in a few words (its error says only "fetch failed"; the cause says why). */
function connectionFailure(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timeout';
  }
  // Only the code: a message may quote the URL.
  return cause?.code ?? 'no answer';
}

/** `work`, or `timedOut()` thrown after `ms` if it has not settled by then. */
async function raceTimeout<T>(work: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
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
