import { paymasterOfferSchema, type PaymasterOffer } from '../../../../common/api';
import { ApiError, apiFetch } from '../../../lib/api-client';

/**
 * GET /api/checkout/:id/paymaster: the shop's paymaster for this checkout, or why the shop will
 * not pay this payment's gas; null when the shop pays no gas (404) or cannot say now (the payment
 * then goes as a plain transfer).
 */
export async function getPaymaster(checkoutId: string): Promise<PaymasterOffer | null> {
  try {
    const parsed = paymasterOfferSchema.safeParse(await apiFetch(`/api/checkout/${encodeURIComponent(checkoutId)}/paymaster`));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (error instanceof ApiError || error instanceof TypeError) return null;
    throw error;
  }
}
