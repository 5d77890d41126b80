/**
 * A hosted paymaster's message, made safe to pass on to a wallet and to log: every secret of the
 * service's settings (its URL, its key, the parts of the URL a key hides in) is cut out however the
 * provider spelled it (any letter case, split by spaces, tabs or line breaks), including a secret
 * the provider itself cut short at the start or end of its message. Only then is the message put on
 * one line and cut to length, so no cut can leave part of a secret behind.
 */

/** How long a piece of a secret, at either end of a message, must be to be taken for the secret cut short. */
const PARTIAL_MIN = 8;
const REDACTED = '[redacted]';

/**
 * `message` without `secrets` (compared ignoring case and whitespace), on one line, at most `max`
 * characters (an ellipsis marks a cut).
 */
export function scrubSecrets(message: string, secrets: readonly string[], max: number): string {
  // The message without its whitespace, lowercased, and where each of its characters came from.
  const at: number[] = [];
  let flat = '';
  for (let i = 0; i < message.length; i++) {
    if (/\s/.test(message[i]!)) continue;
    flat += message[i]!.toLowerCase();
    at.push(i);
  }
  const cut: Array<[number, number]> = [];
  const mark = (from: number, to: number) => cut.push([at[from]!, at[to - 1]! + 1]);
  for (const raw of secrets) {
    const secret = raw.replace(/\s+/g, '').toLowerCase();
    if (!secret) continue;
    for (let i = flat.indexOf(secret); i !== -1; i = flat.indexOf(secret, i + 1)) mark(i, i + secret.length);
    // The provider's own cut: the message ends with the secret's beginning, or starts with its end.
    for (let n = Math.min(secret.length - 1, flat.length); n >= PARTIAL_MIN; n--) {
      if (flat.endsWith(secret.slice(0, n))) {
        mark(flat.length - n, flat.length);
        break;
      }
    }
    for (let n = Math.min(secret.length - 1, flat.length); n >= PARTIAL_MIN; n--) {
      if (flat.startsWith(secret.slice(-n))) {
        mark(0, n);
        break;
      }
    }
  }
  let out = '';
  let from = 0;
  for (const [start, end] of cut.sort((a, b) => a[0] - b[0])) {
    if (end <= from) continue;
    if (start >= from) out += message.slice(from, start) + REDACTED;
    from = end;
  }
  out = (out + message.slice(from)).replace(/\s+/g, ' ').trim();
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
