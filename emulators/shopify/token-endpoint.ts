// POST /admin/oauth/access_token: the client-credentials grant with which an app made in Shopify's
// Dev Dashboard gets its Admin API token. The parameters (grant_type=client_credentials, client_id,
// client_secret) come form-encoded, as shopify.dev's walk-through sends them, or as a JSON object,
// as @shopify/shopify-api does. Success is HTTP 200 `{ access_token, scope, expires_in }`; a refusal
// is HTTP 400 with an OAuth error body and mints nothing.
import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { constantTimeEqual, type AccessTokens } from './access-tokens';
import { INVALID_CLIENT_BODY, missingGrantParameterBody, UNREADABLE_GRANT_BODY, unsupportedGrantTypeBody } from './shopify-errors';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenEndpointOptions {
  client: ClientCredentials;
  tokens: AccessTokens;
  /** What the granted tokens may do, answered as `scope` ("read_products,read_orders"). */
  scopes: readonly string[];
}

const readBody = bodyParser({
  enableTypes: ['json', 'form'],
  onError: (_err, ctx) => {
    ctx.request.body = undefined;
  },
});

/** A parameter as the body gave it: a string, or undefined when absent or not a string. */
function parameter(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function tokenEndpoint(opts: TokenEndpointOptions) {
  const scope = opts.scopes.join(',');
  return async (ctx: Context): Promise<void> => {
    // OAuth: neither a token nor a refusal may be cached.
    ctx.set('Cache-Control', 'no-store');
    const refuse = (body: object) => {
      ctx.status = 400;
      ctx.body = body;
    };
    const kind = ctx.is('application/x-www-form-urlencoded') ? 'form' : ctx.is('json') ? 'json' : null;
    if (!kind) return refuse(UNREADABLE_GRANT_BODY);
    await readBody(ctx, async () => {});
    const body: unknown = ctx.request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse(UNREADABLE_GRANT_BODY);

    const grantType = parameter(body, 'grant_type');
    if (!grantType) return refuse(missingGrantParameterBody('grant_type'));
    if (grantType !== 'client_credentials') return refuse(unsupportedGrantTypeBody(grantType));
    const clientId = parameter(body, 'client_id');
    if (!clientId) return refuse(missingGrantParameterBody('client_id'));
    const clientSecret = parameter(body, 'client_secret');
    if (!clientSecret) return refuse(missingGrantParameterBody('client_secret'));
    // Both compared, in constant time, whichever is wrong: the answer does not say which.
    const idMatches = constantTimeEqual(clientId, opts.client.clientId);
    const secretMatches = constantTimeEqual(clientSecret, opts.client.clientSecret);
    if (!idMatches || !secretMatches) return refuse(INVALID_CLIENT_BODY);

    const { accessToken, expiresInSeconds } = opts.tokens.grant(kind);
    ctx.body = { access_token: accessToken, scope, expires_in: expiresInSeconds };
  };
}
