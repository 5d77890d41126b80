import { isIP } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

// The command line of `npm run shopify:emulator` (launcher.ts).

export interface LauncherArgs {
  /** 0: any free port. */
  port: number;
  host: string;
  /** Absolute path of the folder holding the CA, the server certificate and the app credential. */
  stateDir: string;
  tokenTtlSeconds: number;
  /** How many products the store has: the demo products, then copies of them (growDemoStore). */
  demoProducts: number;
}

export const LAUNCHER_USAGE = `Usage: npm run -s shopify:emulator -- [options]

Serves the Shopify emulator alone over HTTPS, as a store the shop can be pointed at, and prints
the shop's settings for it (KEY=value lines) on stdout.

  --port <n>                 port to listen on; 0 picks a free one (default 8443)
  --host <address>           address to listen on (default 127.0.0.1)
  --state-dir <dir>          where the CA, the server certificate and the app credential are kept
                             (default data/shopify-emulator)
  --token-ttl-seconds <n>    how long a granted access token works (default 86399)
  --demo-products <n>        how many products the store has: the 27 demo products, then copies
                             of them (default 27, at most 50000)
  --help                     this text
`;

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new Error(`--${flag} must be a whole number from ${min} to ${max} (got '${text}')`);
  return n;
}

/** The options, or 'help'; throws an Error saying what is wrong with the command line. */
export function parseLauncherArgs(argv: readonly string[], cwd = process.cwd()): LauncherArgs | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string', default: '8443' },
      host: { type: 'string', default: '127.0.0.1' },
      'state-dir': { type: 'string', default: path.join('data', 'shopify-emulator') },
      'token-ttl-seconds': { type: 'string', default: '86399' },
      'demo-products': { type: 'string', default: '27' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  const host = values.host.trim();
  // A name or an address; a URL or a host:port is a mistake.
  if (!host || (!isIP(host) && !/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host))) {
    throw new Error(`--host must be an IP address or a host name (got '${values.host}')`);
  }
  if (!values['state-dir'].trim()) throw new Error('--state-dir must not be empty');
  return {
    port: wholeNumber('port', values.port, 0, 65535),
    host,
    stateDir: path.resolve(cwd, values['state-dir']),
    tokenTtlSeconds: wholeNumber('token-ttl-seconds', values['token-ttl-seconds'], 1, 10 * 365 * 86400),
    demoProducts: wholeNumber('demo-products', values['demo-products'], 27, 50_000),
  };
}
