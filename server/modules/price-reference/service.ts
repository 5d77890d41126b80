/**
 * The dollar reference, read in the background and answered from memory: a periodic job reads the
 * pool and the feeds at the chain's head (every 30 s) and keeps the latest figure on this instance
 * (no table: each instance reads its own), which GET /api/price-reference answers without calling
 * anything. A payment's reference is read at the payment's own block (`atBlock`), and when the
 * node cannot answer for that block, the reading of this instance nearest to it, if recent.
 */
import type { OrderReference, PriceReferenceAnswer } from '../../../common/api';
import { periodicJob, type Job } from '../../lib/jobs';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import type { PriceReferenceConfig, PriceReferenceContracts } from '../../price-reference-config';
import type { ChainClient } from '../payments';
import { readAtBlock, readPoolFacts, RECENT_SECONDS, type PoolFacts } from './reader';
import { gapTicks, judgeReading, type Judgement, type ReferenceRules } from './twap';

/** How often the job reads the chain. */
const EVERY_MS = 30_000;
/** A figure older than this (the job has failed for a while) is not shown. */
const SHOWN_FOR_MS = 3 * 60_000;
/** The readings kept for payments whose block the node cannot answer for (10 minutes of them). */
const KEPT_READINGS = 20;
/** The oldest kept reading a payment may take instead of its own block's. */
const FALLBACK_MAX_AGE_MS = 5 * 60_000;
/** How long a payment's own reading may take (it never holds the settlement up: it runs after it). */
const PAYMENT_READ_MS = 3_000;

export interface Reading {
  usdPerPogs: string;
  block: number;
  source: string;
  /** When this instance read it (ms since the epoch). */
  at: number;
}

/** Of `readings`, the one read nearest to `block` among those at most `maxAgeMs` old at `now`; null if none is. */
export function nearestReading(readings: readonly Reading[], block: number, now: number, maxAgeMs: number): Reading | null {
  let best: Reading | null = null;
  for (const r of readings) {
    if (now - r.at > maxAgeMs) continue;
    if (!best || Math.abs(r.block - block) < Math.abs(best.block - block)) best = r;
  }
  return best;
}

/** The rules twap.ts judges by, from the settings. */
function rulesOf(config: PriceReferenceConfig): ReferenceRules {
  return {
    windowSeconds: config.windowSeconds,
    recentSeconds: RECENT_SECONDS,
    feedMaxAgeSeconds: config.feedMaxAgeSeconds,
    sequencerGraceSeconds: config.sequencerGraceSeconds,
    maxGapTicks: gapTicks(config.maxGapBps),
  };
}

/**
 * The start checks' and the doctor's look: the pool's and the feed's facts (a wrong pool or feed
 * throws PriceReferenceSetupError) and whether the reference would be shown at the head now, or
 * why not.
 */
export async function checkPriceReference(
  chain: ChainClient,
  config: PriceReferenceConfig & { contracts: PriceReferenceContracts },
  tokenAddress: string,
): Promise<{ facts: PoolFacts; judged: Judgement; block: number }> {
  const facts = await readPoolFacts(chain, config.contracts, tokenAddress, config.windowSeconds);
  const block = await chain.blockNumber();
  const read = await readAtBlock(chain, config.contracts, block, config.windowSeconds, chain.target.timeoutMs ?? 10_000);
  return { facts, block, judged: judgeReading({ ...read, feedDecimals: facts.feedDecimals }, facts, rulesOf(config)) };
}

export interface PriceReferenceDeps {
  chain: ChainClient;
  config: PriceReferenceConfig & { contracts: PriceReferenceContracts };
  /** The POGS token (the pool's one side). */
  tokenAddress: string;
  logger: Logger;
  /** Where the job's passes report an RPC that does not answer. */
  outages?: Outages;
  now?: () => number;
}

export class PriceReferenceService {
  /** Reads at the head every 30 s (registered in server/workers.ts). */
  readonly job: Job;
  private readonly rules: ReferenceRules;
  private readonly now: () => number;
  private facts: PoolFacts | null = null;
  private readings: Reading[] = [];
  private latest: Reading | null = null;
  /** Why the reference is hidden now (logged when it changes), or null while it is shown. */
  private hiddenBecause: string | null = null;

  constructor(private readonly deps: PriceReferenceDeps) {
    this.rules = rulesOf(deps.config);
    this.now = deps.now ?? Date.now;
    this.job = periodicJob({
      name: 'price reference',
      everyMs: EVERY_MS,
      jitter: 0.1,
      logger: deps.logger,
      outages: deps.outages,
      run: () => this.refresh(),
    });
  }

  /** The latest figure, as GET /api/price-reference answers it; null when hidden or too old. */
  current(): PriceReferenceAnswer['reference'] {
    const r = this.latest;
    if (!r || this.now() - r.at > SHOWN_FOR_MS) return null;
    return { usdPerPogs: r.usdPerPogs, block: r.block, source: r.source, observedAt: new Date(r.at).toISOString() };
  }

  /** Reads at the chain's head and keeps the figure, or hides it (the job's pass). */
  async refresh(): Promise<PriceReferenceAnswer['reference']> {
    const block = await this.deps.chain.blockNumber();
    const judged = await this.judgeAt(block, this.deps.chain.target.timeoutMs ?? 10_000);
    if (!judged.ok) {
      this.latest = null;
      if (this.hiddenBecause !== judged.reason)
        this.deps.logger.info({ block, reason: judged.reason }, `price reference hidden: ${judged.reason}`);
      this.hiddenBecause = judged.reason;
      return null;
    }
    if (this.hiddenBecause !== null) this.deps.logger.info({ block, usdPerPogs: judged.usdPerPogs }, 'price reference shown');
    this.hiddenBecause = null;
    const reading: Reading = { usdPerPogs: judged.usdPerPogs, block, source: this.facts!.source, at: this.now() };
    this.latest = reading;
    this.readings = [...this.readings.filter((r) => r.block !== block), reading].slice(-KEPT_READINGS);
    return this.current();
  }

  /**
   * The reference at a payment's block: read at that block when the node answers for it (null
   * when it is hidden there); when the node cannot (an RPC that keeps no state that old, one that
   * does not answer), this instance's reading nearest to that block, at most 5 minutes old; else
   * null. Never throws.
   */
  async atBlock(block: number): Promise<OrderReference> {
    try {
      const judged = await this.judgeAt(block, PAYMENT_READ_MS);
      if (judged.ok) return { usdPerPogs: judged.usdPerPogs, block, source: this.facts!.source };
      this.deps.logger.info({ block, reason: judged.reason }, `no price reference at the payment's block: ${judged.reason}`);
      return null;
    } catch (err) {
      const near = nearestReading(this.readings, block, this.now(), FALLBACK_MAX_AGE_MS);
      this.deps.logger.info(
        { block, err: err instanceof Error ? err.message : String(err), nearest: near?.block ?? null },
        near
          ? "the payment's block could not be read: its price reference is the reading nearest to it"
          : "no price reference for the payment's block",
      );
      return near && { usdPerPogs: near.usdPerPogs, block: near.block, source: near.source };
    }
  }

  private async judgeAt(block: number, timeoutMs: number): Promise<Judgement> {
    const { chain, config, tokenAddress } = this.deps;
    this.facts ??= await readPoolFacts(chain, config.contracts, tokenAddress, config.windowSeconds);
    const read = await readAtBlock(chain, config.contracts, block, config.windowSeconds, timeoutMs);
    return judgeReading({ ...read, feedDecimals: this.facts.feedDecimals }, this.facts, this.rules);
  }
}
