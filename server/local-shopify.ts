/**
 * Local mode only: the bundled Shopify emulator inside the shop's own server, the way `npm start`
 * runs it. main.ts imports this module dynamically and only when `config.mode` is 'local', so a
 * live shop never even loads the emulator's code.
 *
 * The emulator's Admin API access token and webhook secret are random per data folder: made on
 * first start, kept in DATA_DIR (file mode 0600) and reused across restarts. Nobody can forge a
 * webhook or call the Admin API with a constant from the source code.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { z } from 'zod';
import { withEmulatorSecrets, type Config } from './config';
import type { Logger } from './lib/logger';
import { ShopifyGraphql } from './shopify';
import { createShopifyEmulator, type ShopifyEmulator } from '../emulators/shopify';

export interface EmulatorSecrets {
  accessToken: string;
  clientSecret: string;
}

const secretsSchema = z.object({
  accessToken: z.string().regex(/^shpat_[0-9a-f]{32}$/),
  clientSecret: z.string().regex(/^[0-9a-f]{64}$/),
});

function newSecrets(): EmulatorSecrets {
  return { accessToken: `shpat_${randomBytes(16).toString('hex')}`, clientSecret: randomBytes(32).toString('hex') };
}

function readSecrets(file: string): EmulatorSecrets | 'missing' | 'invalid' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const parsed = secretsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'invalid';
  } catch {
    return 'invalid';
  }
}

/**
 * The data folder's emulator secrets: read from `file`, or made (random) and written there with
 * mode 0600 when it does not exist yet. A file that is not ours any more (unreadable JSON, wrong
 * shape) is replaced: these secrets guard only the local demo, nothing else depends on them.
 */
export function loadEmulatorSecrets(file: string, logger?: Logger): EmulatorSecrets {
  const found = readSecrets(file);
  if (typeof found === 'object') {
    // Copied around with looser permissions: only this user should read the keys.
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return found;
  }
  if (found === 'invalid') {
    logger?.warn(`${file} does not hold the Shopify emulator's secrets; making new ones`);
    fs.rmSync(file, { force: true });
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secrets = newSecrets();
  try {
    // 'wx': create only; mode applies on creation.
    fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made them first: use those.
    const theirs = (err as NodeJS.ErrnoException).code === 'EEXIST' ? readSecrets(file) : undefined;
    if (typeof theirs === 'object') return theirs;
    throw err;
  }
  return secrets;
}

export interface LocalShopify {
  /** The configuration with the emulator's secrets filled in (the webhook key payments check). */
  config: Config;
  emulator: ShopifyEmulator;
  /** Mount it in the shop's app at this path (createApp does so in local mode only). */
  mount: { path: string; app: Koa };
  /** The real Shopify client, pointed at the emulator behind the shop's own port. */
  shopify: ShopifyGraphql;
}

/**
 * The emulator and a Shopify client for it. `origin` is where this process itself is reachable
 * (e.g. http://127.0.0.1:PORT), asked at each request since the port is known only after listen.
 */
export function startLocalShopify(config: Config, opts: { origin: () => string; logger?: Logger }): LocalShopify {
  if (config.mode !== 'local') throw new Error('The Shopify emulator runs only in local mode');
  const secrets = loadEmulatorSecrets(config.shopify.secretsFile, opts.logger);
  const { mountPath, apiVersion } = config.shopify;
  const emulator = createShopifyEmulator({ publicOrigin: config.publicUrl + mountPath, ...secrets });
  const shopify = new ShopifyGraphql({
    storeDomain: 'pogs-demo.myshopify.com',
    apiVersion,
    accessToken: secrets.accessToken,
    originOverride: () => opts.origin() + mountPath,
    logger: opts.logger,
  });
  return { config: withEmulatorSecrets(config, secrets), emulator, mount: { path: mountPath, app: emulator.app }, shopify };
}
