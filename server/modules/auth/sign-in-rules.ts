/**
 * What a Sign-In with Ethereum message must be to sign a session in, as pure functions: the
 * message's own fields (this shop's domain and origin, Base's chain id, within its time) and the
 * nonce it carries (issued to this session, not used, not expired). The signature is checked after
 * these (signature.ts), by the service that holds the database and the chain (service.ts).
 */
import { SiweMessage } from 'siwe';
import { ErrorCode } from '../../../common/errors';

/** Clock skew tolerated on issued-at: a phone's clock a little ahead of the server's. */
export const ISSUED_AT_SKEW_MS = 60_000;

export interface SiteIdentity {
  /** host[:port] the message must name, e.g. shop.example.com */
  domain: string;
  /** origin the message must name, e.g. https://shop.example.com */
  uri: string;
}

/** Why a sign-in is refused: an error code and a sentence the shopper can act on. */
export interface Refusal {
  code: typeof ErrorCode.invalidMessage | typeof ErrorCode.invalidNonce;
  text: string;
}

/** The fields of a message the rules read. */
export type MessageFields = Pick<SiweMessage, 'domain' | 'uri' | 'chainId' | 'expirationTime' | 'notBefore' | 'issuedAt'>;

/** A nonce as the shop stored it when it issued it (siwe_nonces), or undefined when it never did. */
export interface IssuedNonce {
  sessionId: string;
  usedAt: Date | null;
  expiresAt: Date;
}

const NOT_SIWE: Refusal = {
  code: ErrorCode.invalidMessage,
  text: 'That is not a Sign-In with Ethereum message. Ask for a new one and sign it.',
};
const OUT_OF_TIME: Refusal = {
  code: ErrorCode.invalidMessage,
  text: 'The sign-in message has expired (or is not valid yet). Sign in again.',
};
const NONCE_REFUSED: Refusal = {
  code: ErrorCode.invalidNonce,
  text: 'That sign-in message was already used, has expired, or was not issued to this browser. Sign in again.',
};

/** The message `text` is, or the refusal of a text that is none. */
export function parseSignInMessage(text: string): SiweMessage | Refusal {
  try {
    return new SiweMessage(text);
  } catch {
    return NOT_SIWE;
  }
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

/** Null when the message is for this shop, on its chain, and within its time at `now`; else why not. */
export function messageRefusal(message: MessageFields, expected: { site: SiteIdentity; chainId: number; now: Date }): Refusal | null {
  const { site, chainId, now } = expected;
  if (message.domain !== site.domain || originOf(message.uri) !== site.uri) {
    return { code: ErrorCode.invalidMessage, text: `The message is for ${message.domain}, not this shop (${site.domain}).` };
  }
  if (message.chainId !== chainId) {
    return {
      code: ErrorCode.invalidMessage,
      text: `The message is for chain ${message.chainId}; this shop signs in on Base (${chainId}).`,
    };
  }
  const at = now.getTime();
  // A message without an end would be good for ever: the shop's messages always carry one.
  if (!message.expirationTime || !(Date.parse(message.expirationTime) > at)) return OUT_OF_TIME;
  if (message.notBefore && !(Date.parse(message.notBefore) <= at)) return OUT_OF_TIME;
  if (message.issuedAt && !(Date.parse(message.issuedAt) <= at + ISSUED_AT_SKEW_MS)) return OUT_OF_TIME;
  return null;
}

/**
 * Null when the nonce was issued to this session (`sessionId`), is unused and has not expired at
 * `now`; else the refusal. A browser without a session has no nonce.
 */
export function nonceRefusal(nonce: IssuedNonce | undefined, sessionId: string | null, now: Date): Refusal | null {
  if (!nonce || !sessionId || nonce.sessionId !== sessionId || nonce.usedAt !== null || !(nonce.expiresAt > now)) return NONCE_REFUSED;
  return null;
}
