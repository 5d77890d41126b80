/**
 * The live rehearsal's world: everything a real deployment has, made on this machine, and the
 * shop started as production starts it, with only live settings.
 *
 *  - Postgres: a fresh database on the server TEST_DATABASE_URL names, dropped at the end;
 *  - the chain: a standalone anvil with Base's chain id, a block every second (as Base makes them),
 *    and a plain ERC-20 deployed on it, minted to the accounts the caller names (the shopper's test
 *    wallet among them); no demo surface anywhere;
 *  - Shopify: the emulator through its own launcher (`npm run shopify:emulator`), over HTTPS with its
 *    own CA, granting client-credentials tokens that live a few seconds;
 *  - the shop: the production set (scripts/stage-production.ts, the image's contents) after
 *    `npm run build`, its compiled server started with plain node (`node dist-server/main.js`, as
 *    the image starts it) with NODE_ENV=production and the settings the launcher printed.
 *
 * Every process it starts is its own process group, ended by its pid at the end. The pieces (a fresh
 * database, a production shop process, its log) are exported for specs that start more of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractFactory, JsonRpcProvider, parseUnits } from 'ethers';
import pg from 'pg';
import { BASE_CHAIN_ID } from '../../common/chain';
import { freePort, startLocalChain, type LocalChain } from '../../server/chain/local-chain';
import { hashPassword } from '../../server/lib/password-hash';
import { stageProduction } from '../../scripts/stage-production';
import { DEV_ACCOUNTS } from '../fixtures/test-wallet';
import { deployed } from '../../server/chain/mined';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
/** The demo token's compiled artifact: a plain OpenZeppelin ERC-20, minting to the accounts it is given. */
const TOKEN_ARTIFACT = path.join(ROOT, 'server', 'chain', 'contracts', 'demo-pogs-token.json');

/** The shopper's test wallet (its default account) holds the token; the store receives on another account. */
export const SHOPPER_ACCOUNT = DEV_ACCOUNTS[2];
const STORE_WALLET = DEV_ACCOUNTS[7];
const DEPLOYER = DEV_ACCOUNTS[0];
/** What each holder is minted. */
const HOLDER_BALANCE = parseUnits('1000000', 18);

/** What the specs need to know about the world (passed to the test workers in the environment). */
export interface WorldFacts {
  shopUrl: string;
  /** The anvil node the test wallet sends the shopper's transactions to. */
  chainRpc: string;
  /** The emulator's origin (its invoice pages, its loopback-only controls). */
  shopifyOrigin: string;
  adminPassword: string;
  tokenAddress: string;
  storeWallet: string;
  /** The unlocked dev accounts the token was minted to (1,000,000 each). */
  tokenHolders: string[];
  /** The Postgres server the world's database is on (where a spec may create its own). */
  databaseServerUrl: string;
  /** The shop's own database on it. */
  databaseUrl: string;
  /** The production set of files (scripts/stage-production.ts), ready to start with `node dist-server/main.js`. */
  stageDir: string;
  /**
   * The live settings every shop process of this world shares: the chain, the token, the store
   * wallet, Shopify's (the emulator's) and the admin password's hash. A process adds its own
   * PORT, PUBLIC_URL, DATABASE_URL and TRUSTED_PROXY_HOPS; another deployment on the same chain
   * gives its own STORE_WALLET_ADDRESS too.
   */
  liveSettings: Record<string, string>;
  /** The shop's log (JSON lines, as production writes them). */
  shopLog: string;
  /** The app's client secret: it must never show in the shop's log. */
  clientSecret: string;
  /** How long each access token the emulator grants lives. */
  tokenTtlSeconds: number;
}

export interface World extends WorldFacts {
  /** The shop process's pid (the benches read its CPU time). */
  shopPid: number;
  stop(): Promise<void>;
}

const WORLD_ENV = 'POGS_REHEARSAL_WORLD';

export function publishFacts(facts: WorldFacts): void {
  process.env[WORLD_ENV] = JSON.stringify(facts);
}

export function worldFacts(): WorldFacts {
  const raw = process.env[WORLD_ENV];
  if (!raw) throw new Error('the rehearsal world is not running (run it with `npm run rehearse`)');
  return JSON.parse(raw) as WorldFacts;
}

export async function startWorld(opts: {
  databaseUrl: string;
  tokenTtlSeconds: number;
  /** Unlocked dev accounts to mint the token to; the shopper's test wallet must be among them. */
  tokenHolders: string[];
  say: (line: string) => void;
  /** How many products the emulator's store has (its launcher's `--demo-products`; the demo's 27 by default). */
  demoProducts?: number;
  /** The checkout whose build the shop runs (the benches' before/after); this one by default. */
  shopRoot?: string;
  /** More settings for the shop process (a bench's METRICS_PORT, say). */
  shopEnv?: Record<string, string>;
}): Promise<World> {
  const { say } = opts;
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => say(`cleanup failed: ${String(err)}`));
  };
  try {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-rehearsal-'));
    cleanups.push(async () => {
      // The shop's log outlives the world, for whoever reads a failed run.
      keepLog(path.join(tmp, 'shop.log'), 'rehearsal-shop.log');
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    const databaseUrl = await createDatabase(opts.databaseUrl, cleanups);
    say(`database: ${new URL(databaseUrl).pathname.slice(1)} created on ${new URL(databaseUrl).host} (dropped at the end)`);

    const chain: LocalChain = await startLocalChain({ port: 0, blockTimeSeconds: 1 });
    cleanups.push(() => chain.stop());
    const tokenAddress = await deployToken(chain.rpcUrl, opts.tokenHolders);
    say(`chain: anvil at ${chain.rpcUrl}, chain id ${BASE_CHAIN_ID}, a block every second`);
    const others = opts.tokenHolders.filter((a) => a !== SHOPPER_ACCOUNT);
    say(
      `token: a plain 18-decimal ERC-20 at ${tokenAddress}; the shopper's wallet ${SHOPPER_ACCOUNT} and ${others.length} more accounts hold 1,000,000 each; the store wallet is ${STORE_WALLET}`,
    );

    const emulator = await launchEmulator(path.join(tmp, 'shopify'), opts.tokenTtlSeconds, opts.demoProducts ?? 27, cleanups);
    say(
      `Shopify: the emulator's launcher serves ${emulator.settings.SHOPIFY_STORE_DOMAIN} at ${emulator.settings.SHOPIFY_API_ORIGIN}, tokens live ${opts.tokenTtlSeconds} s`,
    );

    const adminPassword = randomBytes(12).toString('base64url');
    const stage = path.join(tmp, 'production');
    const shopRoot = opts.shopRoot ?? ROOT;
    const files = stageProduction(shopRoot, stage);
    fs.symlinkSync(path.join(shopRoot, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    say(`shop: the production set staged (${files.length} files: the compiled server, no local mode, emulator or test code)`);

    const liveSettings: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmp,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      BASE_RPC_URL: chain.rpcUrl,
      POG_TOKEN_ADDRESS: tokenAddress,
      STORE_WALLET_ADDRESS: STORE_WALLET,
      ADMIN_PASSWORD_HASH: await hashPassword(adminPassword),
      ...emulator.settings,
    };
    const port = await freePort();
    const shopUrl = `http://localhost:${port}`;
    const shopLog = path.join(tmp, 'shop.log');
    const shop = await startShop(stage, {
      env: {
        ...liveSettings,
        PORT: String(port),
        PUBLIC_URL: shopUrl,
        // No proxy stands in front of it here.
        TRUSTED_PROXY_HOPS: '0',
        DATABASE_URL: databaseUrl,
        ...opts.shopEnv,
      },
      logFile: shopLog,
    });
    cleanups.push(() => shop.stop());
    say(`shop: running at ${shopUrl} with NODE_ENV=production; it says "${liveStartLine(shopLog)}"`);

    const facts: WorldFacts = {
      shopUrl,
      chainRpc: chain.rpcUrl,
      shopifyOrigin: emulator.settings.SHOPIFY_API_ORIGIN!,
      adminPassword,
      tokenAddress,
      storeWallet: STORE_WALLET,
      tokenHolders: opts.tokenHolders,
      databaseServerUrl: opts.databaseUrl,
      databaseUrl,
      stageDir: stage,
      liveSettings,
      shopLog,
      clientSecret: emulator.settings.SHOPIFY_CLIENT_SECRET!,
      tokenTtlSeconds: opts.tokenTtlSeconds,
    };
    return { ...facts, shopPid: shop.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The shop's log lines, parsed (production logs one JSON object a line). A last line without its
 * newline is left out: a process killed while writing it leaves it torn.
 */
export function readLog(file: string): Array<Record<string, unknown>> {
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The line a live shop logs once its start checks passed ("live: chain 8453 via …"), or undefined. */
export function liveStartLine(file: string): string | undefined {
  const line = readLog(file).find((l) => typeof l.msg === 'string' && l.msg.startsWith('live: '));
  return line?.msg as string | undefined;
}

/** Copies a log into test-results/ as `name`, for whoever reads a failed run. */
export function keepLog(file: string, name: string): void {
  if (!fs.existsSync(file)) return;
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  fs.copyFileSync(file, path.join(ROOT, 'test-results', name));
}

/** A fresh database on the Postgres server `serverUrl` names; `cleanups` gets its drop. Answers its URL. */
export async function createDatabase(serverUrl: string, cleanups: Array<() => Promise<void>>): Promise<string> {
  const name = `pogs_rehearsal_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function deployToken(rpcUrl: string, holders: string[]): Promise<string> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true });
  try {
    const artifact = JSON.parse(fs.readFileSync(TOKEN_ARTIFACT, 'utf8')) as { abi: unknown[]; bytecode: string };
    const factory = new ContractFactory(artifact.abi as never, artifact.bytecode, await provider.getSigner(DEPLOYER));
    const contract = await factory.deploy(holders, HOLDER_BALANCE);
    await deployed(contract);
    return await contract.getAddress();
  } finally {
    provider.destroy();
  }
}

/** Ends a process group started with `detached: true`: SIGTERM, then SIGKILL if it lingers. */
async function endGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

async function launchEmulator(
  stateDir: string,
  ttlSeconds: number,
  products: number,
  cleanups: Array<() => Promise<void>>,
): Promise<{ settings: Record<string, string> }> {
  const child = spawn(
    TSX,
    [
      'emulators/shopify/launcher.ts',
      '--port',
      '0',
      '--state-dir',
      stateDir,
      '--token-ttl-seconds',
      String(ttlSeconds),
      '--demo-products',
      String(products),
    ],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'development' } },
  );
  cleanups.push(() => endGroup(child));
  const wanted = ['SHOPIFY_STORE_DOMAIN', 'SHOPIFY_API_ORIGIN', 'SHOPIFY_CLIENT_ID', 'SHOPIFY_CLIENT_SECRET', 'NODE_EXTRA_CA_CERTS'];
  const settings: Record<string, string> = {};
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    // A grown store takes its time to make (about a minute at 20,000 products).
    const waitMs = 60_000 + products * 15;
    const timer = setTimeout(
      () => reject(new Error(`the emulator's launcher printed no settings within ${waitMs / 1000} s: ${stderr}`)),
      waitMs,
    );
    child.once('exit', (code) => reject(new Error(`the emulator's launcher exited (${code}): ${stderr}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const m = /^([A-Z_]+)=(.*)$/.exec(line);
        if (m) settings[m[1]!] = m[2]!;
      }
      if (wanted.every((k) => settings[k])) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { settings };
}

/** A production shop process (`node dist-server/main.js` in the staged set), its own process group. */
export interface ShopProcess {
  pid: number;
  /** Settles when the process has ended, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to its group, SIGKILL if it lingers; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts the staged shop with exactly `env` (nothing of this process's environment), appending its
 * output to `logFile`, and resolves once `/api/health` answers; a shop that exits first, or does
 * not answer within 120 s, is ended and its log's end thrown.
 */
export async function startShop(stage: string, opts: { env: Record<string, string>; logFile: string }): Promise<ShopProcess> {
  const { env, logFile } = opts;
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['dist-server/main.js'], { cwd: stage, env, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const shop: ShopProcess = { pid: child.pid!, exited, stop: () => endGroup(child) };
  const logTail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`http://127.0.0.1:${env.PORT}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) return shop;
    if (gone) {
      const { code, signal } = await exited;
      throw new Error(`the shop exited (${code ?? signal}) before it answered:\n${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await shop.stop();
  throw new Error(`the shop did not answer /api/health within 120 s:\n${logTail()}`);
}
