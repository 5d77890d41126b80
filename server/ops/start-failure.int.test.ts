// A production start that cannot go on says why in one JSON line (what a log collector keeps as
// one event), never a multi-line stack or text: settings that are missing, and a failure later on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function start(env: Record<string, string>): { code: number | null; lines: string[] } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, lines: `${result.stdout}${result.stderr}`.split('\n').filter(Boolean) };
}

describe('a production start that fails', () => {
  it('with settings missing: one JSON line at fatal level naming them, exit 1', () => {
    const { code, lines } = start({ NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: number; msg: string; problems: string[] };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/cannot start/);
    expect(line.problems.join(' ')).toMatch(/DATABASE_URL.*BASE_RPC_URL/);
  });

  it('later on (no database there): one JSON line, one sentence naming DATABASE_URL, no stack, no password, exit 1', () => {
    const { code, lines } = start({
      NODE_ENV: 'production',
      PORT: '0',
      DATABASE_URL: 'postgres://nobody:s3cret-pass@127.0.0.1:2/none',
      PUBLIC_URL: 'https://shop.example',
      SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
      SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
      SHOPIFY_CLIENT_SECRET: 'a-client-secret',
      BASE_RPC_URL: 'http://127.0.0.1:3',
      POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
      STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
      ADMIN_PASSWORD_HASH: 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=',
    });
    expect(code).toBe(1);
    const fatal = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown }).filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toBe(
      'POGS Shop cannot start: the database does not answer (ECONNREFUSED): check that Postgres runs and that DATABASE_URL names its host and port',
    );
    expect(fatal[0]!.err).toBeUndefined();
    expect(lines.every((l) => l.startsWith('{'))).toBe(true);
    expect(lines.join('\n')).not.toContain('s3cret-pass');
  });
});

describe('a start that fails outside production', () => {
  it('says it in one sentence on its last line, without a stack or the password', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-start-failure-'));
    const { code, lines } = start({
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'postgres://nobody:s3cret-pass@127.0.0.1:2/none',
      DATA_DIR: dataDir,
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(
      'POGS Shop cannot start: the database does not answer (ECONNREFUSED): check that Postgres runs and that DATABASE_URL names its host and port.',
    );
    expect(lines.join('\n')).not.toMatch(/s3cret-pass|\n\s+at /);
  });
});
