import { GraphQLError } from 'graphql';

// Relay-style paging shared by every connection. Cursors carry the sort key of the last item
// (like Shopify's base64 `{"last_id":…,"last_value":…}`) instead of an offset, so a page boundary
// survives products being added, deleted or re-sorted between requests.

export const MAX_PAGE_SIZE = 250;

export type SortValue = string | number;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  reverse?: boolean | null;
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

interface CursorKey {
  last_id: number;
  last_value: SortValue;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64');
}

function decodeCursor(cursor: string): CursorKey {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as CursorKey;
    if (typeof key.last_id === 'number' && (typeof key.last_value === 'number' || typeof key.last_value === 'string')) {
      return key;
    }
  } catch {
    // fall through to the error below
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, { extensions: { code: 'BAD_REQUEST' } });
}

function compareKeys(a: CursorKey, b: CursorKey): number {
  if (a.last_value !== b.last_value) return a.last_value < b.last_value ? -1 : 1;
  return a.last_id - b.last_id;
}

/** Page-size range check; static, so the cost pass runs it before anything executes. */
export function checkPageSize(fieldName: string, args: ConnectionArgs): void {
  for (const name of ['first', 'last'] as const) {
    const size = args[name];
    if (size != null && (size < 0 || size > MAX_PAGE_SIZE)) {
      // Wording as seen in public Shopify fakes; Shopify's exact text is unverified.
      throw new GraphQLError(
        `Argument '${name}' on Field '${fieldName}' has an invalid value (${size}). Expected a page size from 0 to ${MAX_PAGE_SIZE}.`,
        { extensions: { code: 'argumentLiteralsIncompatible', typeName: 'Field', argumentName: name } },
      );
    }
  }
}

/** The rules Shopify applies to every connection at execution time. */
export function checkPageArgs(fieldName: string, args: ConnectionArgs): void {
  if (args.first == null && args.last == null) {
    throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  }
  if (args.first != null && args.last != null) {
    throw new GraphQLError('providing both first and last is not supported', { extensions: { code: 'BAD_REQUEST' } });
  }
  checkPageSize(fieldName, args);
}

/**
 * @param items every item the connection can return (already filtered)
 * @param keyOf sort value and numeric id of an item; ties on value are broken by id
 */
export function paginate<T>(
  fieldName: string,
  items: readonly T[],
  args: ConnectionArgs,
  keyOf: (item: T) => [SortValue, number],
): Connection<T> {
  checkPageArgs(fieldName, args);
  const direction = args.reverse ? -1 : 1;
  const keyed = items
    .map((node) => {
      const [value, id] = keyOf(node);
      return { node, key: { last_id: id, last_value: value } };
    })
    .sort((a, b) => direction * compareKeys(a.key, b.key));

  let start = 0;
  let end = keyed.length;
  if (args.after) {
    const after = decodeCursor(args.after);
    while (start < end && direction * compareKeys(keyed[start].key, after) <= 0) start++;
  }
  if (args.before) {
    const before = decodeCursor(args.before);
    while (end > start && direction * compareKeys(keyed[end - 1].key, before) >= 0) end--;
  }
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);

  const edges = keyed.slice(start, end).map(({ node, key }) => ({ cursor: encodeCursor(key), node }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < keyed.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
