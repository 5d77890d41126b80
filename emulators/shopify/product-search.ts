import type { EmulatorProduct } from './emulator-state';

// A small subset of Shopify's search syntax for `products(query:)`: `field:value` terms with
// optional comparison (`updated_at:>'2026-01-01T00:00:00Z'`), quoted values, a leading `-` to
// negate, implicit or explicit AND, and OR between groups. Unknown fields match everything, as
// Shopify ignores them (it only adds a search warning). The parser and the helpers are shared
// with the draft-order and order searches (order-search.ts).

type Comparator = '=' | '>' | '>=' | '<' | '<=';

export interface SearchTerm {
  field: string | null;
  op: Comparator;
  value: string;
  negate: boolean;
}

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /\s*((?:[^\s'"]+|'[^']*'|"[^"]*")+)/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(query))) tokens.push(match[1]);
  return tokens;
}

function unquote(value: string): string {
  return value.replace(/^(['"])(.*)\1$/, '$2');
}

function parseTerm(token: string): SearchTerm {
  const negate = token.startsWith('-');
  const body = negate ? token.slice(1) : token;
  const match = /^([a-z_.]+):(>=|<=|>|<)?(.*)$/i.exec(body);
  if (!match) return { field: null, op: '=', value: unquote(body), negate };
  return { field: match[1].toLowerCase(), op: (match[2] as Comparator) ?? '=', value: unquote(match[3]), negate };
}

/** OR-of-ANDs; an empty or blank query matches everything. */
export function parseProductQuery(query: string | null | undefined): SearchTerm[][] {
  const groups: SearchTerm[][] = [[]];
  let negateNext = false;
  for (const token of tokenize(query ?? '')) {
    if (token === 'AND') continue;
    if (token === 'NOT') negateNext = true;
    else if (token === 'OR') groups.push([]);
    else {
      const term = parseTerm(token);
      groups[groups.length - 1].push({ ...term, negate: term.negate !== negateNext });
      negateNext = false;
    }
  }
  return groups.filter((g) => g.length > 0);
}

export function compare(actual: number, op: Comparator, wanted: number): boolean {
  switch (op) {
    case '>':
      return actual > wanted;
    case '>=':
      return actual >= wanted;
    case '<':
      return actual < wanted;
    case '<=':
      return actual <= wanted;
    default:
      return actual === wanted;
  }
}

export function textMatch(actual: string, wanted: string): boolean {
  const a = actual.toLowerCase();
  const w = wanted.toLowerCase();
  return w.endsWith('*') ? a.startsWith(w.slice(0, -1)) : a === w;
}

function termMatches(p: EmulatorProduct, t: SearchTerm): boolean {
  const v = t.value;
  const lower = v.toLowerCase();
  switch (t.field) {
    case null:
      return [p.title, p.vendor, p.productType, ...p.tags].some((s) => s.toLowerCase().includes(lower));
    case 'updated_at':
    case 'created_at': {
      const wanted = Date.parse(v);
      if (Number.isNaN(wanted)) return true;
      return compare(Date.parse(t.field === 'updated_at' ? p.updatedAt : p.createdAt), t.op, wanted);
    }
    case 'id': {
      const id = Number(v.replace(/^gid:\/\/shopify\/Product\//, ''));
      return Number.isNaN(id) ? true : compare(Number(p.legacyId), t.op, id);
    }
    case 'title':
      return v.endsWith('*') ? textMatch(p.title, v) : p.title.toLowerCase().includes(lower);
    case 'handle':
      return textMatch(p.handle, v);
    case 'vendor':
      return textMatch(p.vendor, v);
    case 'product_type':
      return textMatch(p.productType, v);
    case 'tag':
      return p.tags.some((tag) => textMatch(tag, v));
    case 'status':
      return lower.split(',').includes(p.status.toLowerCase());
    case 'sku':
      return p.variants.some((variant) => variant.sku != null && textMatch(variant.sku, v));
    case 'barcode':
      return p.variants.some((variant) => variant.barcode != null && textMatch(variant.barcode, v));
    case 'inventory_total':
      return compare(
        p.variants.reduce((n, variant) => n + variant.inventoryQuantity, 0),
        t.op,
        Number(v),
      );
    default:
      return true;
  }
}

/** OR of AND groups, each term possibly negated; no groups matches everything. */
export function matchesSearch<T>(item: T, groups: SearchTerm[][], termMatches: (item: T, term: SearchTerm) => boolean): boolean {
  if (groups.length === 0) return true;
  return groups.some((group) => group.every((t) => termMatches(item, t) !== t.negate));
}

export function matchesProductQuery(product: EmulatorProduct, groups: SearchTerm[][]): boolean {
  return matchesSearch(product, groups, termMatches);
}
