/**
 * Order updates by Web Push (docs/order-updates.md), read by loadConfig: the VAPID key pair the
 * shop signs its push messages with (RFC 8292) and the contact the push services may write to.
 * Live: off unless all three are set (the doctor says so). Local mode without them: a key pair
 * made on first start and kept in the data folder (mode 0600), read at start (main.ts). The
 * private key is a secret: no problem reported here repeats it.
 */
import { createECDH } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { optional } from './lib/settings';

const base64url = (chars: number, what: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}$`), `must be the ${what}, in base64url (${chars} characters)`);

/** The settings, as loadConfig's schema reads them (docs/order-updates.md). */
export const PUSH_SETTINGS = {
  /** The VAPID public key (an uncompressed P-256 point): browsers subscribe with it. */
  VAPID_PUBLIC_KEY: optional(base64url(87, 'public key of `npx web-push generate-vapid-keys`')),
  /** Its private key: signs every push message. */
  VAPID_PRIVATE_KEY: optional(base64url(43, 'private key of `npx web-push generate-vapid-keys`')),
  /** Who runs the shop, for the push services: a mailto: address or an https: page. */
  VAPID_SUBJECT: optional(
    z
      .string()
      .trim()
      .refine((s) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(s), 'must be a mailto: address or an https:// URL'),
  ),
  /** How long one push message may take to be accepted by a push service. */
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
};

interface PushSettings {
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
}

/** The key pair and subject push messages are signed with. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * Order updates: configured keys, a key pair kept in the data folder (local mode; `keys` absent
 * until main.ts has read or made it), or off (a live shop without the settings).
 */
export type PushConfig = { kind: 'configured'; keys: VapidKeys } | { kind: 'generated'; file: string; keys?: VapidKeys } | { kind: 'off' };

/** The contact local mode's own key pair names: the push services of a demo never need to write. */
export const LOCAL_VAPID_SUBJECT = 'mailto:orders@pogs-shop.example';

/** Whether `publicKey` is the public half of `privateKey` (both base64url). */
export function vapidPairMatches(publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url') === publicKey;
  } catch {
    return false;
  }
}

/** What is wrong with the push settings as given (none of them set is fine). */
export function pushProblems(e: PushSettings | undefined): string[] {
  if (!e) return [];
  const given = (['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const).filter((k) => e[k]);
  if (given.length === 0) return [];
  if (given.length < 3)
    return [
      `VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are set together (missing: ${['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'].filter((k) => !given.includes(k as never)).join(', ')}); leave all three out to send no order updates`,
    ];
  if (!vapidPairMatches(e.VAPID_PUBLIC_KEY!, e.VAPID_PRIVATE_KEY!))
    return ['VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: set both from the same `npx web-push generate-vapid-keys`'];
  return [];
}

/** Order updates' configuration (pushProblems has passed), and the default line local mode announces. */
export function pushConfig(e: PushSettings, opts: { live: boolean; dataDir: string }): { push: PushConfig; defaults: string[] } {
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY && e.VAPID_SUBJECT)
    return {
      push: { kind: 'configured', keys: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT } },
      defaults: [],
    };
  if (opts.live) return { push: { kind: 'off' }, defaults: [] };
  const file = path.resolve(opts.dataDir, 'vapid-keys.json');
  return {
    push: { kind: 'generated', file },
    defaults: [
      `order updates (Web Push): a VAPID key pair made on first start and kept in ${file} (set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT for your own)`,
    ],
  };
}

/** The key pair read from (or made in) the data folder at start (local mode). */
export function withPushKeys<C extends { push: PushConfig }>(config: C, keys: VapidKeys): C {
  if (config.push.kind !== 'generated') throw new Error('The VAPID keys are configured, or order updates are off');
  return Object.freeze({ ...config, push: Object.freeze({ ...config.push, keys }) });
}

/** The doctor's line about order updates: a live shop without VAPID keys sends none (it still starts). */
export function orderUpdatesCheck(push: PushConfig): { name: string; status: 'ok' | 'warn'; found: string; fix?: string } {
  if (push.kind === 'off')
    return {
      name: 'order updates (Web Push)',
      status: 'warn',
      found: 'off: no VAPID keys are set, so shoppers cannot turn on updates about their orders',
      fix: 'set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY (from `npx web-push generate-vapid-keys`) and VAPID_SUBJECT (docs/order-updates.md)',
    };
  return { name: 'order updates (Web Push)', status: 'ok', found: `on, signed for ${push.keys?.subject ?? LOCAL_VAPID_SUBJECT}` };
}
