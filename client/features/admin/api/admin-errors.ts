import { ApiError } from '../../../lib/api-client';

/** The server's own text for a failed admin write (spec §8: "server message"), else the spec's fallback. */
export function adminErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage?.trim() || fallback;
  return fallback;
}

/**
 * The `message` of a write's answer (`InventoryWriteResult`), or null. Only the message is used:
 * the inventory is read again after every write, so the answer's items need no checking here.
 */
export function answerMessage(body: unknown): string | null {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message.trim() ? message.trim() : null;
}
