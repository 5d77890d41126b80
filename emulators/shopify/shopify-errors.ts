import { Kind, type ASTNode, type DocumentNode, type GraphQLError, type GraphQLFormattedError, type SelectionSetNode } from 'graphql';
import type { ThrottleStatus } from './leaky-bucket';
import { MAX_QUERY_COST } from './query-cost';

// Error bodies in Shopify's wording, so client code written against the emulator matches the real
// thing.

const RATE_LIMIT_DOCS = 'https://shopify.dev/api/usage/rate-limits';

export interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export const INVALID_TOKEN_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
export const MISSING_QUERY_BODY = { errors: { query: 'Required parameter missing or invalid' } };

/**
 * The token endpoint (POST /admin/oauth/access_token) answers a refused grant with HTTP 400 and an
 * OAuth-style body, not the Admin API's `{ errors }`: `invalid_client` for an unknown client id or
 * a wrong secret (never saying which), `unsupported_grant_type` for another grant,
 * `invalid_request` for a missing parameter or an unreadable body.
 */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

export function oauthError(error: OAuthErrorCode, description: string): OAuthErrorBody {
  return { error, error_description: description };
}

export const UNREADABLE_GRANT_BODY = oauthError(
  'invalid_request',
  'The request body could not be read: send the parameters as application/x-www-form-urlencoded or as a JSON object.',
);
export const INVALID_CLIENT_BODY = oauthError(
  'invalid_client',
  'Client authentication failed: the client id is unknown or the client secret is wrong.',
);

export function missingGrantParameterBody(name: string): OAuthErrorBody {
  return oauthError('invalid_request', `The request is missing the required parameter ${name} (a string).`);
}

export function unsupportedGrantTypeBody(grantType: string): OAuthErrorBody {
  return oauthError('unsupported_grant_type', `The grant type '${grantType}' is not supported: use client_credentials.`);
}

export const FAILURE_BODIES: Record<number, unknown> = {
  429: { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' },
  500: { errors: 'Internal Server Error' },
  503: { errors: 'Unavailable Shop' },
};

export function throttledError(): GraphQLFormattedError {
  return { message: 'Throttled', extensions: { code: 'THROTTLED', documentation: RATE_LIMIT_DOCS } };
}

export function maxCostError(cost: number): GraphQLFormattedError {
  return {
    message:
      `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\n` +
      'See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\n' +
      'cost of a query is calculated.\n\n' +
      'To query larger amounts of data with fewer limits, bulk operations should be used instead.\n' +
      'See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n',
    extensions: {
      code: 'MAX_COST_EXCEEDED',
      cost,
      maxCost: MAX_QUERY_COST,
      documentation: 'https://shopify.dev/api/usage/limits#rate-limits',
    },
  };
}

/** Shopify-style path to an AST node: ['query CatalogPage', 'products', 'nodes', 'title']. */
function pathTo(document: DocumentNode, target: ASTNode): string[] | undefined {
  const search = (set: SelectionSetNode | undefined, prefix: string[]): string[] | undefined => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) {
        const here = [...prefix, sel.alias?.value ?? sel.name.value];
        if (sel === target) return here;
        const deeper = search(sel.selectionSet, here);
        if (deeper) return deeper;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const deeper = search(sel.selectionSet, [...prefix, sel.typeCondition ? `... on ${sel.typeCondition.name.value}` : '...']);
        if (deeper) return deeper;
      }
    }
    return undefined;
  };
  for (const def of document.definitions) {
    if (def.kind === Kind.OPERATION_DEFINITION) {
      const found = search(def.selectionSet, [[def.operation, def.name?.value].filter(Boolean).join(' ')]);
      if (found) return found;
    } else if (def.kind === Kind.FRAGMENT_DEFINITION) {
      const found = search(def.selectionSet, [`fragment ${def.name.value}`]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Rewrites the commonest graphql-js validation errors into Shopify's message and extensions. */
export function formatValidationError(error: GraphQLError, document: DocumentNode): GraphQLFormattedError {
  const base = error.toJSON();
  const node = error.nodes?.[0];
  const path = node ? pathTo(document, node) : undefined;
  const unknownField = /^Cannot query field "(\w+)" on type "(\w+)"\./.exec(error.message);
  if (unknownField) {
    const [, fieldName, typeName] = unknownField;
    return {
      message: `Field '${fieldName}' doesn't exist on type '${typeName}'`,
      locations: base.locations,
      path,
      extensions: { code: 'undefinedField', typeName, fieldName },
    };
  }
  const unknownArg = /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"\./.exec(error.message);
  if (unknownArg) {
    const [, argumentName, , fieldName] = unknownArg;
    return {
      message: `Field '${fieldName}' doesn't accept argument '${argumentName}'`,
      locations: base.locations,
      path,
      extensions: { code: 'argumentNotAccepted', name: fieldName, typeName: 'Field', argumentName },
    };
  }
  return path ? { ...base, path } : base;
}
