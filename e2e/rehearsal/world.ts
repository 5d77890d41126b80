/**
 * The live rehearsal's world: everything a real deployment has, made on this machine, and the
 * shop started as production starts it, with only live settings.
 *
 *  - Postgres: a fresh database on the server TEST_DATABASE_URL names, dropped at the end;
 *  - the chain: a standalone anvil with Base's chain id, a block every second (as Base makes them),
 *    and a plain ERC-20 deployed on it, held by the shopper's test wallet; no demo surface anywhere;
 *  - Shopify: the emulator through its own launcher (`npm run shopify:emulator`), over HTTPS with its
 *    own CA, granting client-credentials tokens that live a few seconds;
 *  - the shop: the production set (scripts/stage-production.ts, the image's contents) after
 *    `npm run build`, started with NODE_ENV=production and the settings the launcher printed.
 *
 * Every process it starts is its own process group, ended by its pid at the end.
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

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
/** The demo token's compiled artifact: a plain OpenZeppelin ERC-20, minting to the accounts it is given. */
const TOKEN_ARTIFACT = path.join(ROOT, 'server', 'chain', 'contracts', 'demo-pogs-token.json');

/** The shopper's test wallet (its default account) holds the token; the store receives on another account. */
export const SHOPPER_ACCOUNT = DEV_ACCOUNTS[2];
const STORE_WALLET = DEV_ACCOUNTS[7];
const DEPLOYER = DEV_ACCOUNTS[0];
const SHOPPER_BALANCE = parseUnits('1000000', 18);

/** What the spec needs to know about the world (passed to the test workers in the environment). */
export interface WorldFacts {
  shopUrl: string;
  /** The anvil node the test wallet sends the shopper's transactions to. */
  chainRpc: string;
  /** The emulator's origin (its invoice pages, its loopback-only controls). */
  shopifyOrigin: string;
  adminPassword: string;
  tokenAddress: string;
  storeWallet: string;
  /** The shop's log (JSON lines, as production writes them). */
  shopLog: string;
  /** The app's client secret: it must never show in the shop's log. */
  clientSecret: string;
  /** How long each access token the emulator grants lives. */
  tokenTtlSeconds: number;
}

export interface World extends WorldFacts {
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

export async function startWorld(opts: { databaseUrl: string; tokenTtlSeconds: number; say: (line: string) => void }): Promise<World> {
  const { say } = opts;
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => say(`cleanup failed: ${String(err)}`));
  };
  try {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-rehearsal-'));
    cleanups.push(async () => {
      // The shop's log outlives the world, for whoever reads a failed run.
      const log = path.join(tmp, 'shop.log');
      if (fs.existsSync(log)) {
        fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
        fs.copyFileSync(log, path.join(ROOT, 'test-results', 'rehearsal-shop.log'));
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    const databaseUrl = await createDatabase(opts.databaseUrl, cleanups);
    say(`database: ${new URL(databaseUrl).pathname.slice(1)} created on ${new URL(databaseUrl).host} (dropped at the end)`);

    const chain: LocalChain = await startLocalChain({ port: 0, blockTimeSeconds: 1 });
    cleanups.push(() => chain.stop());
    const tokenAddress = await deployToken(chain.rpcUrl);
    say(`chain: anvil at ${chain.rpcUrl}, chain id ${BASE_CHAIN_ID}, a block every second`);
    say(
      `token: a plain 18-decimal ERC-20 at ${tokenAddress}; the shopper's wallet ${SHOPPER_ACCOUNT} holds 1,000,000; the store wallet is ${STORE_WALLET}`,
    );

    const emulator = await launchEmulator(path.join(tmp, 'shopify'), opts.tokenTtlSeconds, cleanups);
    say(
      `Shopify: the emulator's launcher serves ${emulator.settings.SHOPIFY_STORE_DOMAIN} at ${emulator.settings.SHOPIFY_API_ORIGIN}, tokens live ${opts.tokenTtlSeconds} s`,
    );

    const adminPassword = randomBytes(12).toString('base64url');
    const stage = path.join(tmp, 'production');
    const files = stageProduction(ROOT, stage);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    say(`shop: the production set staged (${files.length} files, no emulator, no test code)`);

    const port = await freePort();
    const shopUrl = `http://localhost:${port}`;
    const shopLog = path.join(tmp, 'shop.log');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmp,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: shopUrl,
      // No proxy stands in front of it here.
      TRUSTED_PROXY_HOPS: '0',
      DATABASE_URL: databaseUrl,
      BASE_RPC_URL: chain.rpcUrl,
      POG_TOKEN_ADDRESS: tokenAddress,
      STORE_WALLET_ADDRESS: STORE_WALLET,
      ADMIN_PASSWORD_HASH: await hashPassword(adminPassword),
      ...emulator.settings,
    };
    await startShop(stage, env, shopLog, cleanups);
    const startLine = readLog(shopLog).find((l) => typeof l.msg === 'string' && l.msg.startsWith('live: '));
    say(`shop: running at ${shopUrl} with NODE_ENV=production; it says "${String(startLine?.msg)}"`);

    const facts: WorldFacts = {
      shopUrl,
      chainRpc: chain.rpcUrl,
      shopifyOrigin: emulator.settings.SHOPIFY_API_ORIGIN!,
      adminPassword,
      tokenAddress,
      storeWallet: STORE_WALLET,
      shopLog,
      clientSecret: emulator.settings.SHOPIFY_CLIENT_SECRET!,
      tokenTtlSeconds: opts.tokenTtlSeconds,
    };
    return { ...facts, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The shop's log lines, parsed (production logs one JSON object a line). */
export function readLog(file: string): Array<Record<string, unknown>> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function createDatabase(serverUrl: string, cleanups: Array<() => Promise<void>>): Promise<string> {
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

async function deployToken(rpcUrl: string): Promise<string> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true });
  try {
    const artifact = JSON.parse(fs.readFileSync(TOKEN_ARTIFACT, 'utf8')) as { abi: unknown[]; bytecode: string };
    const factory = new ContractFactory(artifact.abi as never, artifact.bytecode, await provider.getSigner(DEPLOYER));
    const contract = await factory.deploy([SHOPPER_ACCOUNT], SHOPPER_BALANCE);
    await contract.waitForDeployment();
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
  cleanups: Array<() => Promise<void>>,
): Promise<{ settings: Record<string, string> }> {
  const child = spawn(
    TSX,
    ['emulators/shopify/launcher.ts', '--port', '0', '--state-dir', stateDir, '--token-ttl-seconds', String(ttlSeconds)],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'development' } },
  );
  cleanups.push(() => endGroup(child));
  const wanted = ['SHOPIFY_STORE_DOMAIN', 'SHOPIFY_API_ORIGIN', 'SHOPIFY_CLIENT_ID', 'SHOPIFY_CLIENT_SECRET', 'NODE_EXTRA_CA_CERTS'];
  const settings: Record<string, string> = {};
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the emulator's launcher printed no settings within 60 s: ${stderr}`)), 60_000);
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

async function startShop(stage: string, env: Record<string, string>, logFile: string, cleanups: Array<() => Promise<void>>): Promise<void> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(TSX, ['server/main.ts'], { cwd: stage, env, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  cleanups.push(() => endGroup(child));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(
        new Error(`the shop exited (${code}) before it answered:\n${fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n')}`),
      ),
    ),
  );
  exited.catch(() => {});
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`http://127.0.0.1:${env.PORT}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) return;
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 250))]);
  }
  throw new Error(`the shop did not answer /api/health within 120 s:\n${fs.readFileSync(logFile, 'utf8')}`);
}
