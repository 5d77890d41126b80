// Bulk queries, as Shopify's bulk operations guide describes them: bulkOperationRunQuery checks the
// query (at least one connection, at most five, nested at most two deep, no top-level node/nodes)
// and answers a CREATED operation; the emulator then runs it in the background (RUNNING), writes
// one JSON line per connection node (a nested connection's nodes carry `__parentId`, the parent's
// id, after their parent) and marks it COMPLETED with a download URL that expires (Shopify's last
// seven days). One bulk query runs at a time per shop: another is refused with the userError
// OPERATION_IN_PROGRESS. Tests may hold operations in RUNNING, or make the next one FAIL.
import { randomBytes } from 'node:crypto';
import {
  getNamedType,
  isObjectType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type SelectionSetNode,
  type GraphQLObjectType,
} from 'graphql';
import { toIsoSeconds } from './emulator-state';
import { toGid } from './gid';

export type BulkStatus = 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED';

export interface BulkOperation {
  legacyId: string;
  status: BulkStatus;
  errorCode: 'INTERNAL_SERVER_ERROR' | null;
  query: string;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  fileSize: number | null;
  /** Download token of the finished file. */
  token: string | null;
  /** When the download URL stops working (ms, emulator clock). */
  expiresAt: number | null;
  file: string | null;
}

export interface BulkUserError {
  field: string[] | null;
  message: string;
  code: 'INVALID' | 'OPERATION_IN_PROGRESS';
}

/** Shopify keeps a finished operation's file seven days. */
const RESULT_TTL_MS = 7 * 24 * 3600_000;
const ID_FLOOR = 4_100_000_000;
const MAX_CONNECTIONS = 5;
const MAX_NESTING = 2;

export interface BulkOptions {
  schema: GraphQLSchema;
  now: () => number;
  /** Runs a validated query with every connection unbounded. */
  execute: (document: DocumentNode) => Promise<ExecutionResult>;
  /** The download URL of a token's file. */
  fileUrl: (token: string, expiresAt: number) => string;
}

const isConnectionType = (t: GraphQLObjectType) => t.name.endsWith('Connection');

/** Connections in a selection, each with its nesting depth (1 = top level). */
function connectionDepths(schema: GraphQLSchema, set: SelectionSetNode, type: GraphQLObjectType, depth: number, out: number[]): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const def = type.getFields()[sel.name.value];
      const named = def ? getNamedType(def.type) : null;
      if (!named || !sel.selectionSet) continue;
      if (isObjectType(named) && isConnectionType(named)) {
        out.push(depth);
        const nodeType = getNamedType(named.getFields().nodes.type);
        for (const inner of sel.selectionSet.selections) {
          if (inner.kind !== Kind.FIELD || !inner.selectionSet) continue;
          const innerSet =
            inner.name.value === 'nodes'
              ? inner.selectionSet
              : inner.name.value === 'edges'
                ? inner.selectionSet.selections.find((x) => x.kind === Kind.FIELD && x.name.value === 'node' && x.selectionSet)
                : undefined;
          const nodeSet = innerSet && 'selectionSet' in innerSet ? innerSet.selectionSet : innerSet;
          if (nodeSet && isObjectType(nodeType)) connectionDepths(schema, nodeSet as SelectionSetNode, nodeType, depth + 1, out);
        }
      } else if (isObjectType(named)) {
        connectionDepths(schema, sel.selectionSet, named, depth, out);
      }
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
      if (t && isObjectType(t)) connectionDepths(schema, sel.selectionSet, t, depth, out);
    }
  }
}

type Json = Record<string, unknown>;
const asConnection = (v: unknown): unknown[] | null => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const c = v as { edges?: Array<{ node?: unknown }>; nodes?: unknown[] };
  if (Array.isArray(c.edges)) return c.edges.map((e) => e.node);
  if (Array.isArray(c.nodes)) return c.nodes;
  return null;
};

/** One line per node: the node without its nested connections, then the nested nodes with __parentId. */
function flatten(nodes: unknown[], parentId: string | null, lines: string[]): void {
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue;
    const line: Json = {};
    const nested: unknown[][] = [];
    for (const [key, value] of Object.entries(node as Json)) {
      const inner = asConnection(value);
      if (inner) nested.push(inner);
      else line[key] = value;
    }
    if (parentId) line.__parentId = parentId;
    lines.push(JSON.stringify(line));
    const id = typeof line.id === 'string' ? line.id : null;
    for (const inner of nested) flatten(inner, id, lines);
  }
}

export class BulkOperations {
  private readonly ops = new Map<string, BulkOperation>();
  private lastId = ID_FLOOR;
  private hold = false;
  private failNext = false;
  private readonly held: Array<() => void> = [];

  constructor(private readonly opts: BulkOptions) {}

  get(legacyId: string): BulkOperation | undefined {
    return this.ops.get(legacyId);
  }

  /** The newest bulk query (running or ended), as currentBulkOperation answers. */
  current(): BulkOperation | undefined {
    return [...this.ops.values()].at(-1);
  }

  byToken(token: string): BulkOperation | undefined {
    for (const op of this.ops.values()) if (op.token === token) return op;
    return undefined;
  }

  /** While on, operations stay RUNNING; turning it off lets them complete. */
  setHold(on: boolean): void {
    this.hold = on;
    if (!on) for (const release of this.held.splice(0)) release();
  }

  /** The next operation ends FAILED (INTERNAL_SERVER_ERROR) instead of completing. */
  failNextOperation(): void {
    this.failNext = true;
  }

  reset(): void {
    this.ops.clear();
    this.lastId = ID_FLOOR;
    this.hold = false;
    this.failNext = false;
    this.held.length = 0;
  }

  run(query: string): { operation: BulkOperation } | { userErrors: BulkUserError[] } {
    const running = [...this.ops.values()].find((o) => o.status === 'CREATED' || o.status === 'RUNNING');
    if (running) {
      return {
        userErrors: [
          {
            field: null,
            message: `A bulk query operation for this app and shop is already in progress: ${toGid('BulkOperation', running.legacyId)}.`,
            code: 'OPERATION_IN_PROGRESS',
          },
        ],
      };
    }
    const invalid = (message: string) => ({ userErrors: [{ field: ['query'], message, code: 'INVALID' as const }] });
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (err) {
      return invalid(`Invalid bulk query: ${(err as Error).message}`);
    }
    const errors = validate(this.opts.schema, document);
    if (errors.length) return invalid(`Invalid bulk query: ${errors.map((e) => e.message).join('; ')}`);
    const op = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (!op || op.kind !== Kind.OPERATION_DEFINITION || op.operation !== 'query') return invalid('Bulk queries must be a query operation.');
    for (const sel of op.selectionSet.selections) {
      if (sel.kind === Kind.FIELD && (sel.name.value === 'node' || sel.name.value === 'nodes')) {
        return invalid(`Bulk queries cannot contain a top level \`${sel.name.value}\` field.`);
      }
    }
    const depths: number[] = [];
    connectionDepths(this.opts.schema, op.selectionSet, this.opts.schema.getQueryType()!, 1, depths);
    if (!depths.length) return invalid('Bulk queries must contain at least one connection.');
    if (depths.length > MAX_CONNECTIONS) return invalid(`Bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`);
    if (Math.max(...depths) > MAX_NESTING)
      return invalid(`Bulk queries cannot contain connections with a nesting depth greater than ${MAX_NESTING}.`);

    this.lastId += 1;
    const operation: BulkOperation = {
      legacyId: String(this.lastId),
      status: 'CREATED',
      errorCode: null,
      query,
      createdAt: toIsoSeconds(this.opts.now()),
      completedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      fileSize: null,
      token: null,
      expiresAt: null,
      file: null,
    };
    this.ops.set(operation.legacyId, operation);
    setImmediate(() => void this.execute(operation, document));
    return { operation };
  }

  private async execute(op: BulkOperation, document: DocumentNode): Promise<void> {
    op.status = 'RUNNING';
    // The data is read when the operation starts: a change made while it runs is not in the file.
    const result = await this.opts.execute(document);
    const lines: string[] = [];
    let roots = 0;
    if (!result.errors && result.data) {
      for (const value of Object.values(result.data)) {
        const nodes = asConnection(value);
        if (!nodes) continue;
        roots += nodes.length;
        flatten(nodes, null, lines);
      }
    }
    const fail = this.failNext || Boolean(result.errors);
    this.failNext = false;
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.ops.get(op.legacyId) !== op) return; // reset meanwhile
    op.completedAt = toIsoSeconds(this.opts.now());
    if (fail) {
      op.status = 'FAILED';
      op.errorCode = 'INTERNAL_SERVER_ERROR';
      return;
    }
    op.objectCount = lines.length;
    op.rootObjectCount = roots;
    op.status = 'COMPLETED';
    if (!lines.length) return; // Shopify answers url null when nothing matched.
    op.file = `${lines.join('\n')}\n`;
    op.fileSize = Buffer.byteLength(op.file);
    op.token = randomBytes(16).toString('hex');
    op.expiresAt = this.opts.now() + RESULT_TTL_MS;
  }

  /** The operation as the Admin API shows it. */
  view(op: BulkOperation) {
    return {
      id: toGid('BulkOperation', op.legacyId),
      status: op.status,
      errorCode: op.errorCode,
      type: 'QUERY',
      query: op.query,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
      objectCount: String(op.objectCount),
      rootObjectCount: String(op.rootObjectCount),
      fileSize: op.fileSize === null ? null : String(op.fileSize),
      url: op.token && op.expiresAt ? this.opts.fileUrl(op.token, op.expiresAt) : null,
      partialDataUrl: null,
    };
  }
}
