/**
 * Whether an address is a client's own on the public internet: not loopback, private, link-local
 * or carrier-grade NAT, which a proxy or the machine itself has and many clients share.
 */
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local and carrier-grade NAT ranges: addresses a public client never has. */
const NOT_A_CLIENTS_OWN = new BlockList();
for (const [net, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const) {
  NOT_A_CLIENTS_OWN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  NOT_A_CLIENTS_OWN.addSubnet(net, prefix, 'ipv6');
}

export function isClientsOwn(ip: string): boolean {
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.)/, '')
    .replace(/%.*$/, '');
  const family = isIP(address);
  return family !== 0 && !NOT_A_CLIENTS_OWN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
