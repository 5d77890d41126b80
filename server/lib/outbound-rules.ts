/**
 * Which addresses the shop posts to when someone else chose the URL: a browser's push endpoint
 * (docs/order-updates.md, "The address rules") and a merchant's webhook endpoint
 * (docs/webhooks.md). Without these rules the shop would post to addresses inside its own network
 * for whoever gave the URL. A URL is `https:`; plain `http:` only to this machine in local mode
 * (the tests' stand-in receivers). Its host's addresses are never private, shared (carrier NAT),
 * link-local, multicast or reserved, nor loopback outside local mode; they are checked when the URL
 * is given and again at every send, on the addresses the connection then uses (outbound-http.ts: a
 * name that resolves elsewhere later gains nothing).
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), else null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether the shop may connect to `address` (an IP); loopback only when `local`. */
export function addressAllowed(address: string, opts: { local: boolean }): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = isIP(bare) === 6 ? embeddedIpv4(bare) : null;
  const ip = v4 ?? bare;
  const family = isIP(ip) === 4 ? 'ipv4' : isIP(ip) === 6 ? 'ipv6' : null;
  if (!family) return false;
  if (loopback.check(ip, family)) return opts.local;
  return !blocked.check(ip, family);
}

/** What the rules' sentences call the URL: "push endpoint", "webhook URL". */
export interface OutboundRules {
  local: boolean;
  what?: string;
}

/** Why the shop will not call `endpoint` as written (before its host is resolved), or null. */
export function endpointProblem(endpoint: string, opts: OutboundRules): string | null {
  const what = opts.what ?? 'endpoint';
  const A = `A ${what}`;
  if (!URL.canParse(endpoint)) return `The ${what} is not a URL.`;
  const url = new URL(endpoint);
  if (url.username || url.password) return `${A} carries no user name or password.`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  if (url.protocol === 'http:') {
    if (!(opts.local && (loopbackName || (isIP(host) !== 0 && loopback.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6')))))
      return `${A} must be https:// (plain http only to this machine in local mode).`;
  } else if (url.protocol !== 'https:') return `${A} must be https://.`;
  if (loopbackName && !opts.local) return `${A} cannot be on this machine.`;
  if (isIP(host) !== 0 && !addressAllowed(host, opts)) return `${A} cannot be a private, loopback or link-local address.`;
  return null;
}

/** Why the addresses `host` resolved to may not be called, or null when every one may. */
export function resolvedProblem(addresses: readonly string[], opts: OutboundRules): string | null {
  const what = opts.what ?? 'endpoint';
  if (addresses.length === 0) return `The ${what}’s host has no address.`;
  return addresses.every((a) => addressAllowed(a, opts))
    ? null
    : `The ${what}’s host resolves to a private, loopback or link-local address.`;
}
