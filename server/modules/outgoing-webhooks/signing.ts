/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), by the format's own reference
 * library: a secret is `whsec_` and the base64 of random bytes; a signature is `v1,` and the
 * base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`; the header holds several, space-separated
 * (the new secret's and, for a while after a rotation, the previous one's).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Bytes of a new secret (the format asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The three headers of one attempt: its id, its time (seconds), and a signature per secret. */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}
