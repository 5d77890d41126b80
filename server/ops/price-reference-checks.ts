/**
 * The dollar reference's part of the live start checks and of `npm run doctor`: the configured
 * pool holds POGS, its tokens and the feed answer with their decimals, the sequencer feed answers;
 * and whether the reference would be shown now (a `warn` with the reason when hidden: the shop
 * starts, and shows it once the reason passes).
 */
import type { PriceReferenceConfig } from '../price-reference-config';
import { unavailableCause } from '../lib/unavailable';
import type { ChainClient } from '../modules/payments';
import { checkPriceReference, PriceReferenceSetupError } from '../modules/price-reference';
import type { CheckResult } from './live-checks';

const NAME = 'dollar reference';

/** `tokenAddress`: the POGS token the pool must hold. */
export async function priceReferenceChecks(config: PriceReferenceConfig, tokenAddress: string, chain: ChainClient): Promise<CheckResult[]> {
  const { contracts } = config;
  if (!contracts) return [{ name: NAME, status: 'ok', found: 'off (PRICE_REFERENCE_POOL is not set): no dollar figure is shown' }];
  try {
    const { facts, judged, block } = await checkPriceReference(chain, { ...config, contracts }, tokenAddress);
    const sides = `POGS is the pool's token${facts.pogsIsToken0 ? 0 : 1}; decimals ${facts.pogsDecimals} and ${facts.otherDecimals}, the feed's ${facts.feedDecimals}`;
    return [
      { name: NAME, status: 'ok', found: `${facts.source} (${sides})` },
      judged.ok
        ? { name: `${NAME} now`, status: 'ok', found: `1 POGS ≈ $${judged.usdPerPogs} at block ${block}` }
        : {
            name: `${NAME} now`,
            status: 'warn',
            found: `hidden at block ${block}: ${judged.reason}`,
            fix: 'the shop starts and shows the reference once this passes; a pool without enough history needs more observations (increaseObservationCardinalityNext) or a shorter PRICE_REFERENCE_TWAP_SECONDS',
          },
    ];
  } catch (err) {
    if (err instanceof PriceReferenceSetupError) return [{ name: NAME, status: 'fail', found: err.message, fix: err.fix }];
    const cause = unavailableCause(err);
    return [
      {
        name: NAME,
        status: 'fail',
        found: cause
          ? `the chain did not answer: ${cause.reason}`
          : (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300),
        fix: 'check BASE_RPC_URL and the PRICE_REFERENCE_* addresses (docs/configuration-price-reference.md)',
      },
    ];
  }
}
