/**
 * A checkout as the database keeps it (checkout_intents, checkout_intent_items) and the statuses in
 * which it can still be paid: what the checkout service writes and settlement, the desk and the
 * paymaster read.
 */
import type { CheckoutStatus } from '../../../common/api';

export interface IntentRow {
  id: string;
  session_id: string | null;
  customer_wallet: string | null;
  chain_id: number;
  token_address: string;
  store_wallet: string;
  total_wei: string;
  /** The checkout's full amount (total + suffix). */
  amount_wei: string;
  status: CheckoutStatus | 'closed';
  expires_at: Date;
  match_until: Date;
  tx_hash_hint: string | null;
  stock_claimed_until: Date | null;
  created_at: Date;
}

export interface IntentItemRow {
  variant_id: string;
  title: string;
  unit_price: string;
  quantity: number;
}

/** Statuses in which a checkout can still be paid (until match_until). */
export const PAYABLE: ReadonlyArray<IntentRow['status']> = ['open', 'expired', 'underpaid'];
