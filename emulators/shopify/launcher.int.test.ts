/**
 * The stand-alone emulator (`npm run -s shopify:emulator`): its state folder (CA, server
 * certificate, app credential; made once, reused, remade when unfit), and the launcher itself as a
 * child process whose printed settings are used, as a shop would use them, by another Node process
 * started with NODE_EXTRA_CA_CERTS: a token by the grant, a GraphQL query over HTTPS, 401 once the
 * token's time is up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLauncherState, STATE_FILES } from './launcher-state';

const LAUNCHER = fileURLToPath(new URL('./launcher.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SETTING_KEYS = ['SHOPIFY_STORE_DOMAIN', 'SHOPIFY_API_ORIGIN', 'SHOPIFY_CLIENT_ID', 'SHOPIFY_CLIENT_SECRET', 'NODE_EXTRA_CA_CERTS'];
const DAY_MS = 86_400_000;

let stateDir: string;
beforeEach(() => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shopify-emulator-state-'));
});
afterEach(() => {
  fs.rmSync(stateDir, { recursive: true, force: true });
});

const mode = (name: keyof typeof STATE_FILES) => fs.statSync(path.join(stateDir, STATE_FILES[name])).mode & 0o777;
const read = (name: keyof typeof STATE_FILES) => fs.readFileSync(path.join(stateDir, STATE_FILES[name]), 'utf8');

describe('the launcher’s state folder', () => {
  it('is made on first use: a CA, a server certificate it signed for the emulator’s names, an app credential', async () => {
    const state = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(state.made).toHaveLength(3);
    expect(state.caCertFile).toBe(path.join(stateDir, STATE_FILES.caCert));
    expect(path.isAbsolute(state.caCertFile)).toBe(true);
    expect(state.credentials.clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(state.credentials.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(read('credentials'))).toEqual(state.credentials);
    for (const name of ['caKey', 'serverKey', 'credentials'] as const) expect(mode(name)).toBe(0o600);

    const ca = new X509Certificate(read('caCert'));
    const server = new X509Certificate(state.tls.cert);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.subjectAltName).toBe('DNS:localhost, DNS:demo-shop.myshopify.com, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  });

  it('is reused as it is on later runs, and files copied with looser permissions get 0600 back', async () => {
    const first = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    fs.chmodSync(path.join(stateDir, STATE_FILES.serverKey), 0o644);
    const again = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(again.made).toEqual([]);
    expect(again.credentials).toEqual(first.credentials);
    expect(again.tls).toEqual(first.tls);
    expect(mode('serverKey')).toBe(0o600);
  });

  it('remakes the server certificate when it is missing or expired, keeping the CA shops trust', async () => {
    const first = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    const caPem = read('caCert');
    fs.rmSync(path.join(stateDir, STATE_FILES.serverCert));
    const remade = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(remade.made).toEqual([expect.stringMatching(/^a new server certificate/)]);
    expect(remade.tls.cert).not.toBe(first.tls.cert);

    // An expired certificate, signed by the same CA.
    const expired = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 30 * DAY_MS),
      notAfterDate: new Date(Date.now() - DAY_MS),
      ca: { key: read('caKey'), cert: caPem },
    });
    fs.writeFileSync(path.join(stateDir, STATE_FILES.serverKey), expired.private);
    fs.writeFileSync(path.join(stateDir, STATE_FILES.serverCert), expired.cert);
    const renewed = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(renewed.made).toEqual([expect.stringMatching(/^a new server certificate/)]);
    expect(Date.parse(new X509Certificate(renewed.tls.cert).validTo)).toBeGreaterThan(Date.now() + 300 * DAY_MS);
    // About to expire counts too: a year on, it is remade.
    const yearOn = await loadLauncherState(stateDir, { host: '127.0.0.1', now: Date.now() + 365 * DAY_MS });
    expect(yearOn.made).toEqual([expect.stringMatching(/^a new server certificate/)]);
    expect(read('caCert')).toBe(caPem);
    expect(yearOn.credentials).toEqual(first.credentials);
  });

  it('remakes the server certificate when the CA changed, or the host is not among its names', async () => {
    const first = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    fs.rmSync(path.join(stateDir, STATE_FILES.caKey));
    const newCa = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(newCa.made).toEqual([expect.stringMatching(/^a new CA certificate/), expect.stringMatching(/^a new server certificate/)]);
    expect(new X509Certificate(newCa.tls.cert).checkIssued(new X509Certificate(read('caCert')))).toBe(true);
    expect(newCa.credentials).toEqual(first.credentials);

    const named = await loadLauncherState(stateDir, { host: 'emulator.test' });
    expect(named.made).toEqual([expect.stringMatching(/^a new server certificate for .*emulator\.test/)]);
    expect(new X509Certificate(named.tls.cert).checkHost('emulator.test')).toBe('emulator.test');
    // A wildcard address needs no name of its own.
    expect((await loadLauncherState(stateDir, { host: '0.0.0.0' })).made).toEqual([]);
  });

  it('replaces a credential file that does not hold a credential', async () => {
    await loadLauncherState(stateDir, { host: '127.0.0.1' });
    fs.writeFileSync(path.join(stateDir, STATE_FILES.credentials), '{"clientId":"short"}');
    const state = await loadLauncherState(stateDir, { host: '127.0.0.1' });
    expect(state.made).toEqual([expect.stringMatching(/^a new app credential, replacing/)]);
    expect(JSON.parse(read('credentials'))).toEqual(state.credentials);
    expect(mode('credentials')).toBe(0o600);
  });
});

interface Launched {
  child: ChildProcess;
  settings: Record<string, string>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe('npm run shopify:emulator', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  /** Starts the launcher and resolves once it has printed every setting. */
  function launch(args: string[]): Promise<Launched> {
    const child = spawn(process.execPath, ['--import', 'tsx', LAUNCHER, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The launcher printed no settings in 30 s. stderr:\n${err}`)), 30_000);
      const settings = () =>
        Object.fromEntries(out.split('\n').flatMap((line) => (/^[A-Z_]+=/.test(line) ? [line.split(/=(.*)/s, 2)] : [])));
      child.stdout!.on('data', (chunk: string) => {
        out += chunk;
        const found = settings();
        if (SETTING_KEYS.every((k) => k in found)) {
          clearTimeout(timer);
          resolve({ child, settings: found, stdout: () => out, stderr: () => err, exited });
        }
      });
      child.stderr!.on('data', (chunk: string) => (err += chunk));
      void exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`The launcher exited (${code}) before printing its settings. stderr:\n${err}`));
      });
    });
  }

  /** What a shop process given the printed settings (and nothing else) sees. */
  function asAShop(settings: Record<string, string>, ttlSeconds: number): Promise<Record<string, { status: number; body: unknown }>> {
    const script = `
      const env = process.env;
      const origin = env.SHOPIFY_API_ORIGIN;
      const answer = async (res) => ({ status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() });
      const out = {};
      const grant = await fetch(origin + '/admin/oauth/access_token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.SHOPIFY_CLIENT_ID, client_secret: env.SHOPIFY_CLIENT_SECRET }),
      });
      out.grant = await answer(grant);
      const token = out.grant.body.access_token;
      const query = () => fetch(origin + '/admin/api/2026-07/graphql.json', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query: '{ shop { myshopifyDomain } products(first: 1) { nodes { featuredMedia { ... on MediaImage { image { url } } } } } }' }),
      }).then(answer);
      out.query = await query();
      out.image = await fetch(out.query.body.data.products.nodes[0].featuredMedia.image.url).then(answer);
      await new Promise((resolve) => setTimeout(resolve, ${ttlSeconds * 1000 + 300}));
      out.later = await query();
      process.stdout.write(JSON.stringify(out));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    return new Promise((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out) as Record<string, { status: number; body: unknown }>) : reject(new Error(err)),
      ),
    );
  }

  it('prints exactly the shop’s settings, which work over HTTPS from a process trusting its CA', async () => {
    const run = await launch(['--port', '0', '--state-dir', stateDir, '--token-ttl-seconds', '2']);
    const { settings } = run;
    expect(settings.SHOPIFY_STORE_DOMAIN).toBe('demo-shop.myshopify.com');
    expect(settings.SHOPIFY_API_ORIGIN).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(settings.SHOPIFY_CLIENT_ID).toMatch(/^[0-9a-f]{32}$/);
    expect(settings.SHOPIFY_CLIENT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(settings.NODE_EXTRA_CA_CERTS).toBe(path.join(stateDir, STATE_FILES.caCert));
    expect(JSON.parse(read('credentials'))).toEqual({ clientId: settings.SHOPIFY_CLIENT_ID, clientSecret: settings.SHOPIFY_CLIENT_SECRET });
    for (const name of ['caKey', 'serverKey', 'credentials'] as const) expect(mode(name)).toBe(0o600);

    // Without the CA, this process does not trust it: the certificate really is checked.
    const untrusted = await fetch(`${settings.SHOPIFY_API_ORIGIN}/cdn/images/classic-hoodie-1.svg`).catch((e: unknown) => e);
    expect(untrusted).toBeInstanceOf(TypeError);

    const seen = await asAShop(settings, 2);
    expect(seen.grant).toEqual({
      status: 200,
      body: { access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/), scope: expect.any(String), expires_in: 2 },
    });
    expect(seen.query.status).toBe(200);
    const data = (seen.query.body as { data: { shop: unknown; products: { nodes: Array<{ featuredMedia: { image: { url: string } } }> } } })
      .data;
    expect(data.shop).toEqual({ myshopifyDomain: 'demo-shop.myshopify.com' });
    // Images (and invoice pages) are served over https from the launcher's own origin.
    expect(data.products.nodes[0].featuredMedia.image.url.startsWith(`${settings.SHOPIFY_API_ORIGIN}/cdn/images/`)).toBe(true);
    expect(seen.image.status).toBe(200);
    expect(seen.later).toEqual({
      status: 401,
      body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
    });

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    // Nothing but the settings on stdout; the notes went to stderr.
    expect(run.stdout()).toBe(SETTING_KEYS.map((k) => `${k}=${settings[k]}\n`).join(''));
    expect(run.stderr()).toMatch(/listening on https:\/\/127\.0\.0\.1:\d+/);
  });

  it('reuses its CA and credential on the next run, and stops on SIGINT', async () => {
    const first = await launch(['--port', '0', '--state-dir', stateDir]);
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(0);
    const caPem = read('caCert');

    const second = await launch(['--port', '0', '--state-dir', stateDir]);
    for (const key of ['SHOPIFY_STORE_DOMAIN', 'SHOPIFY_CLIENT_ID', 'SHOPIFY_CLIENT_SECRET', 'NODE_EXTRA_CA_CERTS']) {
      expect(second.settings[key]).toBe(first.settings[key]);
    }
    expect(read('caCert')).toBe(caPem);
    expect(second.stderr()).not.toMatch(/Made/);
    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);
  });

  it('refuses a bad flag with its usage and exit code 2, printing nothing on stdout', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', LAUNCHER, '--port', 'eighty'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/--port must be a whole number/);
    expect(err).toMatch(/Usage: npm run -s shopify:emulator/);
  });
});
