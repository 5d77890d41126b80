import { bodyParser } from '@koa/bodyparser';
import type { RouterContext } from '@koa/router';
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { AccessTokens } from './access-tokens';
import type { AdminContext } from './admin-resolvers';
import type { EmulatorState } from './emulator-state';
import { checkInputSizes } from './input-limits';
import type { LeakyBucket } from './leaky-bucket';
import { calculateActualCost, calculateRequestedCost, MAX_QUERY_COST, selectOperation } from './query-cost';
import {
  FAILURE_BODIES,
  formatValidationError,
  INVALID_TOKEN_BODY,
  maxCostError,
  MISSING_QUERY_BODY,
  throttledError,
  type CostExtension,
} from './shopify-errors';

const API_VERSION_PATTERN = /^\d{4}-(01|04|07|10)$|^unstable$/;

export interface RequestLogEntry {
  at: number;
  operationName?: string;
  variables: unknown;
  throttled: boolean;
  /** HTTP status the emulator answered with. */
  status: number;
}

interface FaultPlan {
  throttle: number;
  fail: { count: number; status: 429 | 500 | 503; retryAfterSeconds?: number };
}

/** Everything the endpoint shares with the control routes and the emulator handle. */
export interface EmulatorRuntime {
  schema: GraphQLSchema;
  state: EmulatorState;
  bucket: LeakyBucket;
  /** The static token and the unexpired granted ones. */
  tokens: AccessTokens;
  now: () => number;
  faults: FaultPlan;
  requestLog: RequestLogEntry[];
  /** The resolvers' context, less what each request adds (its API version). */
  adminContext: Omit<AdminContext, 'apiVersion'>;
}

interface GraphQLRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

const parseBody = bodyParser({
  enableTypes: ['json'],
  onError: (_err, ctx) => {
    ctx.request.body = null;
  },
});

function readRequest(body: unknown): { query: string; variables: unknown; operationName?: string } | null {
  if (!body || typeof body !== 'object') return null;
  const { query, variables, operationName } = body as GraphQLRequestBody;
  if (typeof query !== 'string' || !query.trim()) return null;
  return { query, variables: variables ?? undefined, operationName: typeof operationName === 'string' ? operationName : undefined };
}

export function graphqlEndpoint(rt: EmulatorRuntime) {
  return async (ctx: RouterContext): Promise<void> => {
    const version = ctx.params.version ?? '';
    if (!API_VERSION_PATTERN.test(version)) {
      ctx.status = 404;
      ctx.body = { errors: 'Not Found' };
      return;
    }
    const authorised = rt.tokens.accepts(ctx.get('X-Shopify-Access-Token'));
    if (authorised) ctx.set('X-Shopify-API-Version', version);
    await parseBody(ctx, async () => {});

    const request = readRequest(ctx.request.body);
    const at = rt.now();
    const logEntry: RequestLogEntry = {
      at,
      operationName: request?.operationName,
      variables: request?.variables ?? null,
      throttled: false,
      status: 200,
    };
    rt.requestLog.push(logEntry);
    const reply = (status: number, body: unknown) => {
      logEntry.status = ctx.status = status;
      ctx.body = body;
    };
    // Logged too, so a test can see every call Shopify refused (an expired or unknown token).
    if (!authorised) return reply(401, INVALID_TOKEN_BODY);

    if (rt.faults.fail.count > 0) {
      rt.faults.fail.count -= 1;
      const { status, retryAfterSeconds } = rt.faults.fail;
      if (retryAfterSeconds !== undefined) ctx.set('Retry-After', String(retryAfterSeconds));
      return reply(status, FAILURE_BODIES[status]);
    }
    if (!request) return reply(400, MISSING_QUERY_BODY);

    const cost = (requested: number, actual: number | null): { cost: CostExtension } => ({
      cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: rt.bucket.status() },
    });
    const errorReply = (errors: GraphQLFormattedError[], requested = 0, actual: number | null = 0) =>
      reply(200, { errors, extensions: cost(requested, actual) });

    let document: DocumentNode;
    try {
      document = parse(request.query);
    } catch (err) {
      if (err instanceof GraphQLError) return errorReply([err.toJSON()]);
      throw err;
    }
    logEntry.operationName ??= selectOperation(document, request.operationName)?.name?.value;

    const validationErrors = validate(rt.schema, document);
    if (validationErrors.length) return errorReply(validationErrors.map((e) => formatValidationError(e, document)));

    let requested: number;
    try {
      requested = calculateRequestedCost(rt.schema, document, request.variables, request.operationName);
    } catch (err) {
      if (err instanceof GraphQLError) return errorReply([err.toJSON()]);
      throw err;
    }
    if (requested > MAX_QUERY_COST) return errorReply([maxCostError(requested)], requested, null);

    const forcedThrottle = rt.faults.throttle > 0;
    if (forcedThrottle) rt.faults.throttle -= 1;
    if (forcedThrottle || !rt.bucket.tryTake(requested)) {
      logEntry.throttled = true;
      return errorReply([throttledError()], requested, null);
    }
    // Shopify charges the requested cost for these and refunds nothing (live captures).
    const sizeErrors = checkInputSizes(rt.schema, document, request.variables, request.operationName);
    if (sizeErrors.length) return errorReply(sizeErrors, requested, null);

    const result = await execute({
      schema: rt.schema,
      document,
      variableValues: request.variables as Record<string, unknown> | undefined,
      operationName: request.operationName,
      contextValue: { ...rt.adminContext, apiVersion: version } satisfies AdminContext,
    });
    const actual = Math.min(
      requested,
      calculateActualCost(rt.schema, document, request.variables, request.operationName, result.data as Record<string, unknown> | null),
    );
    rt.bucket.refund(requested - actual);
    reply(200, {
      ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
      // graphql-js omits `data` for request errors (e.g. bad variables); so does Shopify.
      ...('data' in result ? { data: result.data } : {}),
      extensions: cost(requested, actual),
    });
  };
}
