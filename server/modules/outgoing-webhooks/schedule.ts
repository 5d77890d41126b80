/**
 * When a failed delivery is tried again: the Standard Webhooks schedule, about a day and a bit in
 * all. The first attempt is immediate; after each failure the next waits the step's delay; after
 * the eighth failure the delivery is given up (`failed`), and the admin can send it again.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

/** Attempts in one schedule: the first, and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** After failed attempt `step` (1-based) of a schedule: how long until the next, or null when it is given up. */
export function retryDelayMs(step: number): number | null {
  return step >= MAX_ATTEMPTS ? null : RETRY_DELAYS_MS[step - 1]!;
}
