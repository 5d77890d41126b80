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
import type Koa from 'koa';
import { z } from 'zod';
import { withEmulatorSecrets, type Config } from '../config';
import { loadDataFolderSecret } from '../lib/data-folder-secret';
import type { Logger } from '../lib/logger';
import { ShopifyGraphql } from '../shopify';
import { createShopifyEmulator, type ShopifyEmulator } from '../../emulators/shopify';
import { growDemoStore } from '../../emulators/shopify/demo-catalogue';

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

/**
 * The data folder's emulator secrets: read from `file`, or made (random) and written there with
 * mode 0600 when it does not exist yet, or no longer holds them.
 */
export async function loadEmulatorSecrets(file: string, logger?: Logger): Promise<EmulatorSecrets> {
  const { value } = await loadDataFolderSecret(file, {
    parse: (json) => secretsSchema.safeParse(json).data ?? null,
    make: newSecrets,
    onReplace: () => logger?.warn(`${file} does not hold the Shopify emulator's secrets; making new ones`),
  });
  return value;
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
export async function startLocalShopify(config: Config, opts: { origin: () => string; logger?: Logger }): Promise<LocalShopify> {
  if (config.mode !== 'local') throw new Error('The Shopify emulator runs only in local mode');
  const secrets = await loadEmulatorSecrets(config.shopify.secretsFile, opts.logger);
  const { mountPath, apiVersion } = config.shopify;
  // The bulk query's file is fetched by this process, so its URL is where this process listens.
  const emulator = createShopifyEmulator({
    publicOrigin: config.publicUrl + mountPath,
    bulkFileOrigin: () => opts.origin() + mountPath,
    ...secrets,
  });
  growDemoStore(emulator, config.shopify.demoProducts);
  const shopify = new ShopifyGraphql({
    storeDomain: 'pogs-demo.myshopify.com',
    apiVersion,
    accessToken: secrets.accessToken,
    originOverride: () => opts.origin() + mountPath,
    timeoutMs: config.timeouts.shopifyMs,
    logger: opts.logger,
  });
  return { config: withEmulatorSecrets(config, secrets), emulator, mount: { path: mountPath, app: emulator.app }, shopify };
}
