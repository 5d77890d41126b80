// What the stand-alone emulator (launcher.ts) keeps in its state folder, made on first run and
// reused after: a small certificate authority, a server certificate it signed (for localhost, the
// emulator's shop domain, 127.0.0.1, ::1 and the listening host), and the app's credential (client
// id and secret). Private keys and the credential are readable by their owner only (mode 0600).
// A shop trusts the CA with NODE_EXTRA_CA_CERTS, so the CA stays the same across runs; the server
// certificate is remade when it is missing, expired or about to, no longer signed by the CA, or
// does not cover the listening host.
import { createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { generate } from 'selfsigned';
import { EMULATOR_SHOP } from './admin-resolvers';
import type { ClientCredentials } from './token-endpoint';

export const STATE_FILES = {
  caKey: 'ca-key.pem',
  caCert: 'ca-cert.pem',
  serverKey: 'server-key.pem',
  serverCert: 'server-cert.pem',
  credentials: 'app-credentials.json',
} as const;

export interface LauncherState {
  /** Absolute path of the CA certificate: what NODE_EXTRA_CA_CERTS names. */
  caCertFile: string;
  /** The server's key and certificate (PEM), for https.createServer. */
  tls: { key: string; cert: string };
  credentials: ClientCredentials;
  /** A sentence for each thing made or remade this time (none when everything was reused). */
  made: string[];
}

const DAY_MS = 86_400_000;
const CA_LIFETIME_DAYS = 3650;
const SERVER_LIFETIME_DAYS = 365;
/** A certificate this close to its end is remade rather than served. */
const RENEW_MARGIN_MS = DAY_MS;
/** Certificates start an hour early, for clocks a little behind. */
const BACKDATE_MS = 3_600_000;

const CLIENT_ID = /^[0-9a-f]{32}$/;
const CLIENT_SECRET = /^[0-9a-f]{64}$/;

/** Names the server certificate always covers. */
const BASE_NAMES = ['localhost', EMULATOR_SHOP.myshopifyDomain, '127.0.0.1', '::1'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Written whole or not at all (a temporary file renamed over it), with `mode` from the start. */
function writeFile(file: string, text: string, mode: number): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, text, { mode, flag: 'wx' });
  fs.renameSync(temp, file);
}

/** Copied around with looser permissions: only this user should read it. */
function keepPrivate(file: string): void {
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
}

function parseCertificate(pem: string | null): X509Certificate | null {
  if (!pem) return null;
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

function keyMatches(cert: X509Certificate, keyPem: string | null): boolean {
  if (!keyPem) return false;
  try {
    return cert.publicKey.equals(createPublicKey(keyPem));
  } catch {
    return false;
  }
}

function isCurrent(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && Date.parse(cert.validTo) > now + RENEW_MARGIN_MS;
}

function covers(cert: X509Certificate, name: string): boolean {
  return isIP(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name) !== undefined;
}

/** The names the server certificate must cover when listening on `host`. */
export function serverCertificateNames(host: string): string[] {
  const names = [...BASE_NAMES];
  const known = new Set(names.map((n) => n.toLowerCase()));
  if (!WILDCARD_HOSTS.has(host) && !known.has(host.toLowerCase())) names.push(host);
  return names;
}

async function makeCa(now: number): Promise<{ key: string; cert: string }> {
  const made = await generate([{ name: 'commonName', value: 'POGS Shop local Shopify emulator CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - BACKDATE_MS),
    notAfterDate: new Date(now + CA_LIFETIME_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { key: made.private, cert: made.cert };
}

async function makeServerCertificate(
  ca: { key: string; cert: string },
  names: string[],
  now: number,
): Promise<{ key: string; cert: string }> {
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - BACKDATE_MS),
    notAfterDate: new Date(now + SERVER_LIFETIME_DAYS * DAY_MS),
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    ],
  });
  return { key: made.private, cert: made.cert };
}

function loadCredentials(file: string, made: string[]): ClientCredentials {
  const text = readText(file);
  if (text !== null) {
    let parsed: Partial<ClientCredentials> | null = null;
    try {
      parsed = JSON.parse(text) as Partial<ClientCredentials>;
    } catch {
      parsed = null;
    }
    if (parsed && typeof parsed.clientId === 'string' && CLIENT_ID.test(parsed.clientId)) {
      if (typeof parsed.clientSecret === 'string' && CLIENT_SECRET.test(parsed.clientSecret)) {
        keepPrivate(file);
        return { clientId: parsed.clientId, clientSecret: parsed.clientSecret };
      }
    }
  }
  const credentials = { clientId: randomBytes(16).toString('hex'), clientSecret: randomBytes(32).toString('hex') };
  writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, 0o600);
  made.push(text === null ? `a new app credential (${file})` : `a new app credential, replacing ${file}, which did not hold one`);
  return credentials;
}

/**
 * Reads the state folder, making (with mode 0600 for keys and the credential) whatever is missing
 * or no longer fit. `host` is the address the server will listen on; `now` is for tests.
 */
export async function loadLauncherState(stateDir: string, opts: { host: string; now?: number }): Promise<LauncherState> {
  const now = opts.now ?? Date.now();
  const file = (name: keyof typeof STATE_FILES) => path.join(path.resolve(stateDir), STATE_FILES[name]);
  fs.mkdirSync(path.resolve(stateDir), { recursive: true, mode: 0o700 });
  const made: string[] = [];

  let caKey = readText(file('caKey'));
  let caPem = readText(file('caCert'));
  let ca = parseCertificate(caPem);
  if (!ca || !ca.ca || !isCurrent(ca, now) || !keyMatches(ca, caKey)) {
    const fresh = await makeCa(now);
    writeFile(file('caKey'), fresh.key, 0o600);
    writeFile(file('caCert'), fresh.cert, 0o644);
    [caKey, caPem, ca] = [fresh.key, fresh.cert, new X509Certificate(fresh.cert)];
    made.push(`a new CA certificate (${file('caCert')}): shops trust it through NODE_EXTRA_CA_CERTS`);
  } else {
    keepPrivate(file('caKey'));
  }

  const names = serverCertificateNames(opts.host);
  let serverKey = readText(file('serverKey'));
  let serverPem = readText(file('serverCert'));
  const server = parseCertificate(serverPem);
  const fit =
    server &&
    server.checkIssued(ca) &&
    server.verify(ca.publicKey) &&
    isCurrent(server, now) &&
    keyMatches(server, serverKey) &&
    names.every((n) => covers(server, n));
  if (!fit) {
    const fresh = await makeServerCertificate({ key: caKey!, cert: caPem! }, names, now);
    writeFile(file('serverKey'), fresh.key, 0o600);
    writeFile(file('serverCert'), fresh.cert, 0o644);
    [serverKey, serverPem] = [fresh.key, fresh.cert];
    made.push(`a new server certificate for ${names.join(', ')} (${file('serverCert')})`);
  } else {
    keepPrivate(file('serverKey'));
  }

  const credentials = loadCredentials(file('credentials'), made);
  return { caCertFile: file('caCert'), tls: { key: serverKey!, cert: serverPem! }, credentials, made };
}
