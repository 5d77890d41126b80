/**
 * Shopify bulk queries: start one (bulkOperationRunQuery), poll it (bulkOperation(id)) with a
 * growing pause until it ends or `timeoutMs` passes, then read its JSONL file as it downloads
 * (a timeout and a size limit on the download too). Shopify runs one bulk query per app and shop
 * at a time; a refused, failed or timed-out operation is a BulkOperationFailed, so the caller can
 * fall back to paged reads.
 */
import { sleep as realSleep, type Sleep } from '../lib/sleep';
import type { ShopifyGraphql } from './admin-client';
import {
  BULK_OPERATION_QUERY,
  BULK_RUN_QUERY_MUTATION,
  CURRENT_BULK_OPERATION_QUERY,
  type BulkOperationNode,
  type CurrentBulkOperationResult,
  type BulkOperationResult,
  type BulkRunQueryResult,
} from './documents';
import { parseJsonLines } from './jsonl';

export interface BulkQueryOptions {
  /** First pause between polls; each next one is 1.5 times longer, up to `pollMaxMs`. */
  pollFirstMs?: number;
  pollMaxMs?: number;
  /** From the start until the operation must have ended (default 20 minutes). */
  timeoutMs?: number;
  /** The file's download, start to end (default 5 minutes). */
  downloadTimeoutMs?: number;
  /** The largest file read (default 512 MB). */
  maxBytes?: number;
  sleep?: Sleep;
  /** Every poll's answer (progress: objectCount, rootObjectCount). */
  onPoll?: (op: BulkOperationNode) => void;
}

/** Shopify refused the bulk query, or it failed, was cancelled, expired or took too long. */
export class BulkOperationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BulkOperationFailed';
  }
}

const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELED', 'EXPIRED']);

/** Runs `query` in bulk and answers the finished operation (its `url` is null when nothing matched). */
export async function runBulkQuery(shopify: ShopifyGraphql, query: string, opts: BulkQueryOptions = {}): Promise<BulkOperationNode> {
  const sleep = opts.sleep ?? realSleep;
  const timeoutMs = opts.timeoutMs ?? 20 * 60_000;
  const started = Date.now();
  const { data } = await shopify.query<BulkRunQueryResult>(BULK_RUN_QUERY_MUTATION, { query });
  const { bulkOperation, userErrors } = data.bulkOperationRunQuery;
  if (!bulkOperation) {
    let why = userErrors.map((e) => (e.code ? `${e.message} (${e.code})` : e.message)).join('; ') || 'no bulk operation was created';
    if (userErrors.some((e) => e.code === 'OPERATION_IN_PROGRESS')) {
      // Another bulk query of this app (another tool, or a sync whose instance died) holds the slot.
      const { data: current } = await shopify.query<CurrentBulkOperationResult>(CURRENT_BULK_OPERATION_QUERY, {});
      if (current.currentBulkOperation) why += ` (running: ${current.currentBulkOperation.id}, ${current.currentBulkOperation.status})`;
    }
    throw new BulkOperationFailed(`Shopify refused the bulk query: ${why}`);
  }
  let op = bulkOperation;
  let pause = opts.pollFirstMs ?? 500;
  while (!ENDED.has(op.status)) {
    if (Date.now() - started > timeoutMs) {
      throw new BulkOperationFailed(
        `the bulk query ${op.id} had not finished after ${Math.round(timeoutMs / 1000)} s (status ${op.status})`,
      );
    }
    await sleep(pause);
    pause = Math.min(opts.pollMaxMs ?? 5000, Math.round(pause * 1.5));
    const { data: polled } = await shopify.query<BulkOperationResult>(BULK_OPERATION_QUERY, { id: op.id });
    if (!polled.bulkOperation) throw new BulkOperationFailed(`Shopify no longer knows the bulk query ${op.id}`);
    op = polled.bulkOperation;
    opts.onPoll?.(op);
  }
  if (op.status !== 'COMPLETED') {
    throw new BulkOperationFailed(`the bulk query ${op.id} ended ${op.status}${op.errorCode ? ` (${op.errorCode})` : ''}`);
  }
  return op;
}

/** The rows of a finished bulk operation's file, parsed as the download arrives. */
export async function* bulkResultRows(op: BulkOperationNode, opts: BulkQueryOptions = {}): AsyncGenerator<Record<string, unknown>> {
  if (!op.url) return;
  const maxBytes = opts.maxBytes ?? 512 * 1024 * 1024;
  if (op.fileSize && Number(op.fileSize) > maxBytes) {
    throw new BulkOperationFailed(`the bulk result is ${op.fileSize} bytes, more than the ${maxBytes} this shop reads`);
  }
  const res = await fetch(op.url, { signal: AbortSignal.timeout(opts.downloadTimeoutMs ?? 5 * 60_000), redirect: 'follow' });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new BulkOperationFailed(`downloading the bulk result answered HTTP ${res.status}`);
  }
  let read = 0;
  const reader = res.body.getReader();
  async function* limited(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        read += value.byteLength;
        if (read > maxBytes) throw new BulkOperationFailed(`the bulk result is larger than the ${maxBytes} bytes this shop reads`);
        yield value;
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  yield* parseJsonLines(limited());
}
