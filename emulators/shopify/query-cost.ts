import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { checkPageSize, type ConnectionArgs } from './connection';

// Shopify's calculated query cost, as its GraphQL Admin API rate-limits documentation describes it:
//   scalar/enum 0 · object 1 · connection 2 + page size, multiplied through nested connections.
// An object is charged once per selection, not once per returned node: that is what makes the
// sync's catalogue query (10 products × 50 variants × 10 media) cost ≈ 670 rather than
// ≈ 1,800, and our sync is sized against that budget. The same walk over the returned data
// gives actualQueryCost, which therefore never exceeds the requested cost.

export const MAX_QUERY_COST = 1000;
/**
 * A mutation field costs a flat 10, whatever its payload selects: sample draftOrderCreate answers
 * (10) and live captures (API 2026-04: three draft mutations → 30, requested and actual) say so.
 */
const MUTATION_COST = 10;

interface CostContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

interface CollectedField {
  field: FieldNode;
  def: GraphQLField<unknown, unknown>;
  type: GraphQLNamedType;
}

interface NodeSelection {
  selectionSet: SelectionSetNode;
  type: GraphQLNamedType;
  /** Response key of the connection's node list. */
  key: string;
}

export function selectOperation(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.find((op) => op.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
}

function makeContext(
  schema: GraphQLSchema,
  document: DocumentNode,
  op: OperationDefinitionNode,
  rawVariables: unknown,
): CostContext | null {
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], (rawVariables ?? {}) as Record<string, unknown>);
  // Bad variables are reported by execution; there is nothing sensible to price.
  if (coerced.errors) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return { schema, fragments, variables: coerced.coerced };
}

function rootType(schema: GraphQLSchema, op: OperationDefinitionNode): GraphQLNamedType | null | undefined {
  return op.operation === 'query'
    ? schema.getQueryType()
    : op.operation === 'mutation'
      ? schema.getMutationType()
      : schema.getSubscriptionType();
}

function collectFields(
  ctx: CostContext,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType,
  out: CollectedField[] = [],
): CollectedField[] {
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__') || !(isObjectType(parentType) || isInterfaceType(parentType))) continue;
      const def = parentType.getFields()[sel.name.value];
      if (def) out.push({ field: sel, def, type: getNamedType(def.type) });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? ctx.schema.getType(sel.typeCondition.name.value) : parentType;
      if (type) collectFields(ctx, sel.selectionSet, type, out);
    } else {
      const fragment = ctx.fragments[sel.name.value];
      const type = fragment && ctx.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type) collectFields(ctx, fragment.selectionSet, type, out);
    }
  }
  return out;
}

function isConnection(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith('Connection');
}

function responseKey(field: FieldNode): string {
  return field.alias?.value ?? field.name.value;
}

function nodeSelections(ctx: CostContext, connection: CollectedField): NodeSelection[] {
  const found: NodeSelection[] = [];
  if (!connection.field.selectionSet) return found;
  for (const child of collectFields(ctx, connection.field.selectionSet, connection.type)) {
    if (!child.field.selectionSet) continue;
    if (child.def.name === 'nodes') found.push({ selectionSet: child.field.selectionSet, type: child.type, key: responseKey(child.field) });
  }
  return found;
}

function requested(ctx: CostContext, selectionSet: SelectionSetNode, parentType: GraphQLNamedType, multiplier: number): number {
  let total = 0;
  for (const entry of collectFields(ctx, selectionSet, parentType)) {
    if (isLeafType(entry.type) || !entry.field.selectionSet) continue;
    if (isConnection(entry.type)) {
      const args = getArgumentValues(entry.def, entry.field, ctx.variables) as ConnectionArgs;
      checkPageSize(entry.def.name, args);
      const size = args.first ?? 0;
      total += multiplier * (2 + size);
      // The same nodes selected twice (aliases) are priced once, at the dearer selection.
      total += Math.max(0, ...nodeSelections(ctx, entry).map((n) => requested(ctx, n.selectionSet, n.type, multiplier * size)));
    } else {
      total += 1 + requested(ctx, entry.field.selectionSet, entry.type, multiplier);
    }
  }
  return total;
}

type Row = Record<string, unknown>;

function nodesOf(instance: Row, key: string): unknown[] {
  return (instance[key] as unknown[] | null) ?? [];
}

function actual(ctx: CostContext, selectionSet: SelectionSetNode, parentType: GraphQLNamedType, values: Row[]): number {
  let total = 0;
  for (const entry of collectFields(ctx, selectionSet, parentType)) {
    if (isLeafType(entry.type) || !entry.field.selectionSet) continue;
    const key = responseKey(entry.field);
    const instances = values.map((v) => v[key]).filter((v) => v != null);
    if (instances.length === 0) continue;
    if (isConnection(entry.type)) {
      const selections = nodeSelections(ctx, entry);
      for (const inst of instances as Row[]) {
        total += 2 + Math.max(0, ...selections.map((s) => nodesOf(inst, s.key).length));
      }
      total += Math.max(
        0,
        ...selections.map((s) => {
          const nodes = (instances as Row[]).flatMap((inst) => nodesOf(inst, s.key)).filter((n): n is Row => n != null);
          return actual(ctx, s.selectionSet, s.type, nodes);
        }),
      );
    } else {
      const objects = (instances as unknown[]).flat(Infinity).filter((v): v is Row => v != null);
      if (objects.length) total += 1 + actual(ctx, entry.field.selectionSet, entry.type, objects);
    }
  }
  return total;
}

/**
 * Requested cost of the operation that will run. Throws the GraphQLError Shopify gives for a page
 * size above 250; returns 0 when the operation or its variables are invalid (execution reports it).
 */
export function calculateRequestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: unknown,
  operationName?: string | null,
): number {
  const op = selectOperation(document, operationName);
  const ctx = op && makeContext(schema, document, op, variables);
  const root = op && rootType(schema, op);
  if (!op || !ctx || !root) return 0;
  // Walked for mutations too: it applies the page-size check to connections in the payload.
  const cost = requested(ctx, op.selectionSet, root, 1);
  return op.operation === 'mutation' ? MUTATION_COST * collectFields(ctx, op.selectionSet, root).length : cost;
}

/** Cost of what was actually returned in `data`. */
export function calculateActualCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: unknown,
  operationName: string | null | undefined,
  data: Record<string, unknown> | null | undefined,
): number {
  const op = selectOperation(document, operationName);
  const ctx = op && makeContext(schema, document, op, variables);
  const root = op && rootType(schema, op);
  if (!op || !ctx || !root || !data) return 0;
  if (op.operation === 'mutation') {
    return MUTATION_COST * collectFields(ctx, op.selectionSet, root).filter((f) => responseKey(f.field) in data).length;
  }
  return actual(ctx, op.selectionSet, root, [data]);
}
