/** How the payments desk and the orders view write amounts and times (exact, never a float). */
import { formatUnits } from '../../../common/money';

/** POG from wei, every digit, at least 2 decimals ("12.50", "7.000000000000000123"). */
export const pog = (wei: bigint) => formatUnits(wei, 18, 2);
/** Wei from a numeric column (pg answers numerics as decimal strings). */
export const wei = (v: string | number) => BigInt(String(v).split('.')[0]!);
export const iso = (v: Date | string) => new Date(v).toISOString();
