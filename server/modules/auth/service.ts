/**
 * Sign-In with Ethereum (EIP-4361, the `siwe` package) for the order history. Payments to the
 * store wallet are public on-chain, so a wallet address alone must not show anyone's orders: the
 * session proves the wallet by signing a message the server wrote, with a single-use, short-lived
 * nonce stored here. The checks: domain and URI are this shop's, chain id is Base, the nonce is
 * this session's and unused, the message is within its time, and the signature is the address's:
 * a plain key's, a deployed smart account's (ERC-1271) or a smart account's not deployed yet
 * (ERC-6492), the last two asked on chain (signature.ts).
 */
import { getAddress } from 'ethers';
import { generateNonce, SiweMessage } from 'siwe';
import type { AuthSession, SiweNonce } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { unavailableCause } from '../../lib/unavailable';
import { sessionWallet, setSessionWallet } from '../session';
import { signedBy, type ChainRpc } from './signature';
import { messageRefusal, nonceRefusal, parseSignInMessage, type IssuedNonce, type Refusal, type SiteIdentity } from './sign-in-rules';

export const SIWE_STATEMENT = 'Sign in to POGS Shop to see your orders.';
/** How long a nonce (and the message carrying it) may be signed and presented. */
export const NONCE_TTL_MS = 10 * 60_000;
/** How long a session stays signed in to a wallet. */
export const SIGNED_IN_TTL_MS = 7 * 24 * 60 * 60_000;

export class AuthService {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly opts: {
      chainId: number;
      /** The chain, for smart accounts' signatures (ERC-1271, ERC-6492); without it only plain keys sign in. */
      rpc?: ChainRpc;
      now?: () => Date;
      /** Told when a session has proved a wallet (payments match that wallet's transfers then). */
      onSignedIn?: (sessionId: string, address: string) => Promise<unknown>;
    },
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  async nonce(sessionId: string, address: string, site: SiteIdentity): Promise<SiweNonce> {
    const now = this.now();
    const nonce = generateNonce();
    const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
    const message = new SiweMessage({
      domain: site.domain,
      address: getAddress(address),
      statement: SIWE_STATEMENT,
      uri: site.uri,
      version: '1',
      chainId: this.opts.chainId,
      nonce,
      issuedAt: now.toISOString(),
      expirationTime: expiresAt.toISOString(),
    }).prepareMessage();
    await this.db('siwe_nonces').insert({
      nonce,
      session_id: sessionId,
      address: address.toLowerCase(),
      created_at: now,
      expires_at: expiresAt,
    });
    return { nonce, message, expiresAt: expiresAt.toISOString() };
  }

  async verify(sessionId: string | null, text: string, signature: string, site: SiteIdentity): Promise<AuthSession> {
    const now = this.now();
    const message = parseSignInMessage(text);
    if (!(message instanceof SiweMessage)) throw refused(message);
    const wrong = messageRefusal(message, { site, chainId: this.opts.chainId, now });
    if (wrong) throw refused(wrong);

    // Single use: the nonce is spent by the first request that presents it, whatever its
    // signature; two requests with it at once are taken one after the other (the row is locked).
    const nonceRefused = await this.db.transaction(async (trx) => {
      const row = (await trx('siwe_nonces').where({ nonce: message.nonce }).forUpdate().first()) as
        { session_id: string; used_at: Date | null; expires_at: Date } | undefined;
      const issued: IssuedNonce | undefined = row && {
        sessionId: row.session_id,
        usedAt: row.used_at,
        expiresAt: new Date(row.expires_at),
      };
      const refusal = nonceRefusal(issued, sessionId, now);
      if (!refusal) await trx('siwe_nonces').where({ nonce: message.nonce }).update({ used_at: now });
      return refusal;
    });
    if (nonceRefused) throw refused(nonceRefused);

    // The fields were checked above; the signature is over the message as siwe writes it.
    let signed: boolean;
    try {
      signed = await signedBy(message.address, message.prepareMessage(), signature, this.opts.rpc);
    } catch (err) {
      // A smart account's signature is checked on chain: an RPC that did not answer says nothing about it.
      if (!unavailableCause(err)) throw err;
      throw new AppError(
        ErrorCode.chainUnavailable,
        'We cannot reach the Base network to check your wallet’s signature right now. Try signing in again in a moment.',
        { expose: true },
      );
    }
    if (!signed) throw new AppError(ErrorCode.invalidSignature, 'The signature does not belong to that wallet.');

    const address = message.address.toLowerCase();
    const walletExpiresAt = new Date(now.getTime() + SIGNED_IN_TTL_MS);
    await setSessionWallet(this.db, sessionId!, address, walletExpiresAt);
    await this.opts.onSignedIn?.(sessionId!, address);
    return { address, expiresAt: walletExpiresAt.toISOString() };
  }

  async logout(sessionId: string | null): Promise<AuthSession> {
    if (sessionId) await setSessionWallet(this.db, sessionId, null, null);
    return { address: null, expiresAt: null };
  }

  /** The wallet this session has proven, if still valid. */
  async session(sessionId: string | null): Promise<AuthSession> {
    if (!sessionId) return { address: null, expiresAt: null };
    const wallet = await sessionWallet(this.db, sessionId, this.now());
    return wallet ? { address: wallet.address, expiresAt: wallet.expiresAt.toISOString() } : { address: null, expiresAt: null };
  }

  /** Spent and expired nonces are worth nothing; swept with the sessions. */
  async sweep(): Promise<number> {
    return this.db('siwe_nonces').where('expires_at', '<', this.now()).delete();
  }
}

function refused({ code, text }: Refusal): AppError {
  return new AppError(code, text);
}
