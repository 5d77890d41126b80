import { GraphQLError } from 'graphql';

// Relay-style paging shared by every connection. Cursors carry the sort key of the last item
// (like Shopify's base64 `{"last_id":…,"last_value":…}`) instead of an offset, so a page boundary
// survives products being added, deleted or re-sorted between requests.

const MAX_PAGE_SIZE = 250;

type SortValue = string | number;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

export interface Connection<T> {
  nodes: T[];
  edges: Array<{ node: T; cursor: string }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

interface CursorKey {
  last_id: number;
  last_value: SortValue;
}

function encodeCursor(key: CursorKey): string {
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
  const size = args.first;
  if (size != null && (size < 0 || size > MAX_PAGE_SIZE)) {
    // Wording as seen in public Shopify fakes; Shopify's exact text is unverified.
    throw new GraphQLError(
      `Argument 'first' on Field '${fieldName}' has an invalid value (${size}). Expected a page size from 0 to ${MAX_PAGE_SIZE}.`,
      { extensions: { code: 'argumentLiteralsIncompatible', typeName: 'Field', argumentName: 'first' } },
    );
  }
}

/**
 * Forward paging, the only kind the shop uses (Shopify also offers last/before and reverse).
 * @param items every item the connection can return (already filtered)
 * @param keyOf sort value and numeric id of an item; ties on value are broken by id
 */
export function paginate<T>(
  fieldName: string,
  items: readonly T[],
  args: ConnectionArgs,
  keyOf: (item: T) => [SortValue, number],
  /** A bulk query's connections take no page size: every item. */
  unbounded = false,
): Connection<T> {
  if (unbounded && args.first == null) args = { ...args, first: items.length };
  // Shopify's rule for every connection: without a page size there is no page.
  if (args.first == null) throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  if (!unbounded) checkPageSize(fieldName, args);
  const keyed = items
    .map((node) => {
      const [value, id] = keyOf(node);
      return { node, key: { last_id: id, last_value: value } };
    })
    .sort((a, b) => compareKeys(a.key, b.key));

  let start = 0;
  if (args.after) {
    const after = decodeCursor(args.after);
    while (start < keyed.length && compareKeys(keyed[start].key, after) <= 0) start++;
  }
  const page = keyed.slice(start, start + args.first);
  return {
    nodes: page.map((e) => e.node),
    edges: page.map((e) => ({ node: e.node, cursor: encodeCursor(e.key) })),
    pageInfo: {
      hasNextPage: start + page.length < keyed.length,
      endCursor: page.length ? encodeCursor(page[page.length - 1].key) : null,
    },
  };
}
