/**
 * A hosted paymaster service as the shop's sponsor (PAYMASTER_SERVICE_URL): the service forwards
 * the wallet's ERC-7677 call, the same method with [userOp, entryPoint, chainId, context], only once
 * the shop's own checks passed (and, for pm_getPaymasterData, once the sponsorship is recorded).
 * The shop's ticket stays with the shop: the context forwarded is the provider's own (its
 * sponsorship policy, when PAYMASTER_POLICY_ID is set). Every call has a timeout.
 *
 * What the wallet is told: a provider that did not answer, answered too late, or answered what is
 * not a paymaster's fields is `-32603 sponsor-unavailable` (try again); a provider's own refusal
 * (a JSON-RPC error) is `-32001 sponsor-refused` with the provider's message, trimmed. The URL and
 * the key are secrets (most providers carry the key in the URL): they are never logged, and
 * scrubbed from a provider's message, however it spells them, before it is cut and passed on.
 */
import { toQuantity } from 'ethers';
import { z } from 'zod';
import type { Logger } from '../../lib/logger';
import { PaymasterError } from './paymaster-error';
import { scrubSecrets } from './scrub';
import type { PaymasterFields, Sponsor, SponsorCall } from './sponsor';
import { address, hex } from './user-operation';

// Providers write quantities with or without leading zeros; the wallet is given them normalised.
const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'a 0x-prefixed hexadecimal quantity');

/** A provider's answer: the paymaster's fields (a stub's may say whether it is final, and who sponsors), or a JSON-RPC error. */
const hostedAnswerSchema = z.union([
  z.object({
    result: z.object({
      paymaster: address,
      paymasterData: hex,
      // ERC-7677: the stub may carry them, pm_getPaymasterData (v0.7/v0.8) need not (the stub's stand).
      paymasterVerificationGasLimit: quantity.optional(),
      paymasterPostOpGasLimit: quantity.optional(),
      isFinal: z.boolean().optional(),
      sponsor: z.object({ name: z.string(), icon: z.string().optional() }).optional(),
    }),
  }),
  z.object({ error: z.object({ code: z.number().int(), message: z.string() }) }),
]);

/** The longest part of a provider's message passed on to the wallet. */
const MESSAGE_MAX = 300;

export class HostedSponsor implements Sponsor {
  private readonly secrets: string[];

  constructor(
    private readonly config: { url: string; key?: string; policyId?: string },
    private readonly opts: { timeoutMs: number; logger: Logger },
  ) {
    this.secrets = secretsOf(config.url, config.key);
  }

  stub(call: SponsorCall): Promise<PaymasterFields> {
    return this.ask('pm_getPaymasterStubData', call);
  }

  final(call: SponsorCall): Promise<PaymasterFields> {
    return this.ask('pm_getPaymasterData', call);
  }

  private async ask(method: 'pm_getPaymasterStubData' | 'pm_getPaymasterData', call: SponsorCall): Promise<PaymasterFields> {
    const { policyId, key } = this.config;
    // Pimlico reads a policy as `sponsorshipPolicyId`, Alchemy as `policyId`: the one setting goes under both names.
    const context = policyId ? { sponsorshipPolicyId: policyId, policyId } : {};
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [call.op, call.entryPoint, toQuantity(call.chainId), context] });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    let status: number;
    let text: string;
    try {
      // No redirects: the key would follow them.
      const res = await fetch(this.config.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      // The error itself is not logged: undici's may name the address it called.
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw this.unavailable(method, timedOut ? 'timeout' : 'unreachable');
    }
    if (status === 429 || status >= 500) throw this.unavailable(method, 'busy', { status });
    // The shop's own key refused: the operator's to fix (a warning), not the shopper's payment refused.
    if (status === 401 || status === 403) throw this.unavailable(method, 'auth', { status });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.unavailable(method, 'malformed', { status });
    }
    const answer = hostedAnswerSchema.safeParse(json);
    if (!answer.success) {
      throw this.unavailable(method, 'malformed', { status, issues: answer.error.issues.map((i) => i.path.join('.')).slice(0, 5) });
    }
    if ('error' in answer.data) {
      const message = this.scrub(answer.data.error.message);
      this.opts.logger.info({ method, status, code: answer.data.error.code, message }, 'paymaster: the hosted sponsor refused');
      throw new PaymasterError(-32001, `The shop’s gas sponsor refused this payment: ${message || 'no reason given'}`, 'sponsor-refused');
    }
    const fields = answer.data.result;
    // A stub that is already final would be a sponsorship the shop has not recorded nor checked the balance for.
    if (method === 'pm_getPaymasterStubData' && fields.isFinal) throw this.unavailable(method, 'final-stub', { status });
    return {
      paymaster: fields.paymaster,
      paymasterData: fields.paymasterData,
      ...(fields.paymasterVerificationGasLimit && {
        paymasterVerificationGasLimit: toQuantity(BigInt(fields.paymasterVerificationGasLimit)),
      }),
      ...(fields.paymasterPostOpGasLimit && { paymasterPostOpGasLimit: toQuantity(BigInt(fields.paymasterPostOpGasLimit)) }),
    };
  }

  private unavailable(method: string, cause: 'timeout' | 'unreachable' | 'busy' | 'auth' | 'malformed' | 'final-stub', facts: object = {}) {
    this.opts.logger.warn({ method, cause, ...facts }, 'paymaster: the hosted sponsor gave no usable answer');
    const message =
      cause === 'timeout' || cause === 'unreachable' || cause === 'busy'
        ? 'The shop’s gas sponsor is not answering right now; try again in a moment.'
        : 'The shop’s gas sponsor cannot sponsor payments right now; try again later, or contact the shop.';
    return new PaymasterError(-32603, message, 'sponsor-unavailable');
  }

  /** A provider's message as passed on: without the URL or the key however spelled (scrub.ts), on one line, trimmed. */
  private scrub(message: string): string {
    return scrubSecrets(message, this.secrets, MESSAGE_MAX);
  }
}

/**
 * What must never be repeated of the service's settings: the key, the URL, and the parts of the
 * URL a key hides in (a path segment, a query value, credentials), longest first.
 */
function secretsOf(url: string, key?: string): string[] {
  const parsed = new URL(url);
  const parts = [parsed.username, parsed.password, parsed.search.slice(1)];
  for (const segment of parsed.pathname.split('/')) parts.push(segment, safeDecode(segment));
  for (const [, value] of parsed.searchParams) parts.push(value, encodeURIComponent(value));
  // Short parts ("v2", "rpc", "base") are not secrets, and scrubbing them would garble the message.
  const secrets = [url, parsed.href, ...(key ? [key] : []), ...parts.filter((p) => p.length >= 12)];
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
