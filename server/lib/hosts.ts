/**
 * Facts about hosts and ports the configuration checks need, without touching the network.
 */
import { isIP } from 'node:net';

/**
 * The Fetch standard's "bad ports": Node's `fetch` refuses to call them ("bad port") before any
 * connection is made. A shop that must reach something on one of them (its own Shopify emulator
 * in the local demo, a Shopify API origin) would fail every call, so the configuration refuses it.
 */
const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export function fetchRefusesPort(port: number): boolean {
  return FETCH_BAD_PORTS.has(port);
}

/**
 * A host name that stays on this machine: `localhost` (and its subdomains, which browsers resolve
 * to loopback), 127.0.0.0/8 and ::1 (with or without URL brackets).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}
