/** How the payments desk and the orders view write amounts, times and explorer links (exact, never a float). */
import { formatUnits } from '../../../common/money';
import { paidWithSchema, type PaidWith } from '../../../common/swap-pay';
import type { Config } from '../../config';

/** POG from wei, every digit, at least 2 decimals ("12.50", "7.000000000000000123"). */
export const pog = (wei: bigint) => formatUnits(wei, 18, 2);
/** Wei from a numeric column (pg answers numerics as decimal strings). */
export const wei = (v: string | number) => BigInt(String(v).split('.')[0]!);
export const iso = (v: Date | string) => new Date(v).toISOString();

/** The explorer's page of a transaction; null on the local demo chain (no explorer knows it). */
export type ExplorerUrl = (txHash: string) => string | null;

/** The explorer's pages under `config` (read at each call). */
export function explorerUrlOf(config: Pick<Config, 'mode' | 'publicLinks'>): ExplorerUrl {
  return (txHash) => (config.mode === 'local' ? null : `${config.publicLinks.explorerUrl}/tx/${txHash}`);
}

/** How a transfer was paid, from its columns (chain_transfers.paid_with …); null while not looked up. */
export function paidWithOfRow(r: {
  paid_with: string | null;
  payer_address: string | null;
  amount_in: string | number | null;
}): PaidWith | null {
  if (r.paid_with === null) return null;
  return paidWithSchema.parse({
    coin: r.paid_with,
    amountIn: r.amount_in === null ? null : wei(r.amount_in).toString(),
    payer: r.payer_address,
  });
}
