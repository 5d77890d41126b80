import {
  getArgumentValues,
  getLocation,
  getNamedType,
  getNullableType,
  getVariableValues,
  isInputObjectType,
  isListType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { selectOperation } from './query-cost';

// Shopify caps some input arrays and rejects a request that exceeds one before running it: HTTP
// 200, a top-level MAX_INPUT_SIZE_EXCEEDED error per offending argument and no `data` (live
// captures, API 2026-04). Keyed by input type and field.
// Of these the shop can reach only the draft's line items (a cart has no cap on its lines).
const INPUT_ARRAY_LIMITS: Record<string, number> = {
  'DraftOrderInput.lineItems': 499,
};

function oversized(
  type: GraphQLInputType,
  value: unknown,
  path: string[],
  found: Array<{ path: string[]; size: number; max: number }>,
): void {
  const named = getNamedType(type);
  if (value == null || !isInputObjectType(named)) return;
  if (isListType(getNullableType(type))) {
    for (const item of value as unknown[]) oversized(named, item, path, found);
    return;
  }
  for (const [name, field] of Object.entries(named.getFields())) {
    const fieldValue = (value as Record<string, unknown>)[name];
    const max = INPUT_ARRAY_LIMITS[`${named.name}.${name}`];
    if (max !== undefined && Array.isArray(fieldValue) && fieldValue.length > max) {
      found.push({ path: [...path, name], size: fieldValue.length, max });
    }
    oversized(field.type, fieldValue, [...path, name], found);
  }
}

/** Errors for every capped input array that is too long in the operation's root fields. */
export function checkInputSizes(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: unknown,
  operationName?: string | null,
): GraphQLFormattedError[] {
  const op = selectOperation(document, operationName);
  const root = op?.operation === 'mutation' ? schema.getMutationType() : op?.operation === 'query' ? schema.getQueryType() : null;
  if (!op || !root) return [];
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>);
  // Bad variables are reported by execution.
  if (coerced.errors) return [];
  const errors: GraphQLFormattedError[] = [];
  const fields = op.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  for (const node of fields) {
    const def = root.getFields()[node.name.value];
    if (!def) continue;
    const args = getArgumentValues(def, node, coerced.coerced);
    const found: Array<{ path: string[]; size: number; max: number }> = [];
    for (const arg of def.args) oversized(arg.type, args[arg.name], [node.name.value, arg.name], found);
    for (const { path, size, max } of found) {
      errors.push({
        message: `The input array size of ${size} is greater than the maximum allowed of ${max}.`,
        locations: node.loc ? [getLocation(node.loc.source, node.loc.start)] : undefined,
        path,
        extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
      });
    }
  }
  return errors;
}
