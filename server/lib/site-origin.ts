import type { Context } from 'koa';
import type { Config } from '../config';

/**
 * The shop's own origin: the configured public URL, or (in development without one) the origin
 * the browser is using, so a shop reached through a dev proxy still works. Sign-in messages must
 * name it, and admin requests must come from it.
 */
export function shopOrigin(config: Config, ctx: Context): string {
  return new URL(config.publicUrlConfigured || config.env === 'production' ? config.publicUrl : `${ctx.protocol}://${ctx.host}`).origin;
}
