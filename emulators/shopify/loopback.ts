// The emulator's /__emulator controls act for whoever calls them (list every draft order with its
// invoice link, complete or fulfil any order, reset everything), so even in local mode they answer
// only clients on this machine: a stranger on the same network reaches the demo shop, not its
// controls. The address is the socket's own, never a forwarded-for header.
import { BlockList, isIP } from 'node:net';
import type { Middleware } from 'koa';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1, also IPv4-mapped (::ffff:127.0.0.1, a dual-stack socket's view). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  return family !== 0 && LOOPBACK.check(address!, family === 6 ? 'ipv6' : 'ipv4');
}

export const loopbackOnly: Middleware = async (ctx, next) => {
  if (!isLoopbackAddress(ctx.req.socket.remoteAddress)) {
    ctx.status = 403;
    ctx.body = { errors: 'The emulator controls answer only on this machine (a loopback address).' };
    return;
  }
  await next();
};
