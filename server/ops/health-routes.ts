/**
 * The health routes: `/api/health` (what an operator reads: the database, the catalogue, the
 * outages under way), `/api/health/live` (the process serves) and `/api/health/ready` (should
 * traffic come to this instance: server/ops/readiness.ts).
 */
import type { Router } from '@koa/router';
import type { Health } from '../../common/api';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import type { Outages } from '../lib/outages';
import type { CatalogueService } from '../modules/catalogue';
import type { Readiness } from './readiness';

export function healthRoutes(
  api: Router,
  deps: { config: Config; logger: Logger; catalogue: CatalogueService; readiness?: Readiness; outages?: Outages },
): void {
  const { config, logger, catalogue, readiness, outages } = deps;
  api.get('/api/health', async (ctx) => {
    let dbOk = true;
    let products = 0;
    try {
      products = await catalogue.productCount();
    } catch (err) {
      dbOk = false;
      if (!outages?.report(err)) logger.error({ err }, 'health: database check failed');
    }
    const last = dbOk ? await catalogue.lastSync().catch(() => undefined) : undefined;
    const body: Health = {
      status: dbOk ? 'ok' : 'degraded',
      database: config.database.kind,
      shopify: config.shopify.kind,
      catalogue: { products, lastSyncAt: last?.finishedAt ?? null },
      outages: (['database', 'chain', 'shopify'] as const).flatMap((dependency) => {
        const since = outages?.state(dependency).since;
        return since ? [{ dependency, since }] : [];
      }),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = dbOk ? 200 : 503;
    ctx.body = body;
  });
  // Liveness: the process serves (an orchestrator restarts it when this fails). Nothing else is asked.
  api.get('/api/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  // Readiness: should traffic come here (server/ops/readiness.ts): 503 only for what keeps this instance
  // from serving; the shared services that are down are named beside it (`degraded`), parts only.
  api.get('/api/health/ready', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const answer = readiness ? await readiness.check() : { ready: true, failing: [], degraded: [] };
    ctx.status = answer.ready ? 200 : 503;
    ctx.body = {
      status: answer.ready ? 'ready' : 'unready',
      ...(answer.failing.length ? { failing: answer.failing } : {}),
      ...(answer.degraded.length ? { degraded: answer.degraded } : {}),
    };
  });
}
