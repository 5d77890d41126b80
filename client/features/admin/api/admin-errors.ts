import { ApiError } from '../../../lib/api-client';

/**
 * The server's own text for a failed admin write: the `message` of a
 * `{ code, message }` answer, or a plain-text answer's body (a proxy's, or a server that answers
 * in text); else the fallback. JSON without a message and HTML pages are no text to show.
 */
export function adminErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage?.trim() || plainText(error.bodyText) || fallback;
  return fallback;
}

function plainText(body: string): string | null {
  const text = body.trim();
  if (!text || text.startsWith('<')) return null;
  try {
    JSON.parse(text);
    return null;
  } catch {
    return text;
  }
}

/**
 * The `message` of a write's answer (`InventoryWriteResult`), or null. Only the message is used:
 * the inventory is read again after every write, so the answer's items need no checking here.
 */
export function answerMessage(body: unknown): string | null {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message.trim() ? message.trim() : null;
}
