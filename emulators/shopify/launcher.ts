// `npm run -s shopify:emulator`: the Shopify emulator alone, over HTTPS, with its demo catalogue, as
// a store a shop can be pointed at like a real one (an app made in the Dev Dashboard: client id and
// secret, tokens from the client-credentials grant that expire). Once it listens it prints on
// stdout, one KEY=value a line, exactly the settings the shop needs for it, and nothing else, so a
// script can read them; notes for people go to stderr. SIGINT or SIGTERM stops it.
import https from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { EMULATOR_SHOP } from './admin-resolvers';
import { growDemoStore } from './demo-catalogue';
import { createShopifyEmulator } from './index';
import { LAUNCHER_USAGE, parseLauncherArgs, type LauncherArgs } from './launcher-args';
import { loadLauncherState } from './launcher-state';

const note = (line: string) => process.stderr.write(`${line}\n`);

function readArgs(): LauncherArgs {
  try {
    const args = parseLauncherArgs(process.argv.slice(2));
    if (args !== 'help') return args;
    process.stderr.write(LAUNCHER_USAGE);
    process.exit(0);
  } catch (err) {
    note(`${(err as Error).message}\n`);
    process.stderr.write(LAUNCHER_USAGE);
    process.exit(2);
  }
}

/** How a URL names the listening host: a wildcard address as 127.0.0.1, an IPv6 one in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}

async function main(): Promise<void> {
  const args = readArgs();
  const state = await loadLauncherState(args.stateDir, { host: args.host });
  for (const made of state.made) note(`Made ${made}`);

  const server = https.createServer({ key: state.tls.key, cert: state.tls.cert });
  // Before anything is printed: whoever reads the settings may signal at once.
  const stop = (signal: NodeJS.Signals) => {
    note(`${signal}: stopping the Shopify emulator`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    // A webhook still being delivered does not hold the exit up for long.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, args.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `https://${urlHost(args.host)}:${port}`;
  const emulator = createShopifyEmulator({
    publicOrigin: origin,
    clientId: state.credentials.clientId,
    clientSecret: state.credentials.clientSecret,
    tokenTtlSeconds: args.tokenTtlSeconds,
  });
  growDemoStore(emulator, args.demoProducts);
  server.on('request', emulator.app.callback());

  const settings = {
    SHOPIFY_STORE_DOMAIN: EMULATOR_SHOP.myshopifyDomain,
    SHOPIFY_API_ORIGIN: origin,
    SHOPIFY_CLIENT_ID: state.credentials.clientId,
    SHOPIFY_CLIENT_SECRET: state.credentials.clientSecret,
    NODE_EXTRA_CA_CERTS: state.caCertFile,
  };
  process.stdout.write(
    Object.entries(settings)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  note(
    `Shopify emulator listening on ${origin} with ${args.demoProducts} products (state in ${args.stateDir}; tokens last ${args.tokenTtlSeconds} s). Ctrl-C stops it.`,
  );
}

main().catch((err: unknown) => {
  note(`The Shopify emulator could not start: ${(err as Error).message}`);
  process.exit(1);
});
