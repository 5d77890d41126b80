import type { EmulatorDraftOrder, EmulatorOrder } from './order-state';
import { displayFulfillmentStatus } from './order-state';
import { compare, matchesSearch, parseProductQuery, textMatch, type SearchTerm } from './product-search';

// `draftOrders(query:)` and `orders(query:)`: the same search syntax as products, over the fields
// an app looks drafts and orders up by. `tag:payref-…` is how an app finds the draft it may
// already have created before retrying draftOrderCreate (contract §4.5).

function idTerm(legacyId: string, t: SearchTerm, type: string): boolean {
  const id = Number(t.value.replace(new RegExp(`^gid://shopify/${type}/`), ''));
  return Number.isNaN(id) ? true : compare(Number(legacyId), t.op, id);
}

function timeTerm(iso: string | null, t: SearchTerm): boolean {
  const wanted = Date.parse(t.value);
  if (Number.isNaN(wanted)) return true;
  return iso !== null && compare(Date.parse(iso), t.op, wanted);
}

function freeText(t: SearchTerm, values: Array<string | null>): boolean {
  const lower = t.value.toLowerCase();
  return values.some((v) => v?.toLowerCase().includes(lower));
}

function draftTermMatches(d: EmulatorDraftOrder, t: SearchTerm): boolean {
  switch (t.field) {
    case null:
      return freeText(t, [d.name, d.email, d.note, ...d.tags]);
    case 'tag':
      return d.tags.some((tag) => textMatch(tag, t.value));
    case 'status':
      return t.value.toLowerCase().split(',').includes(d.status.toLowerCase());
    case 'id':
      return idTerm(d.legacyId, t, 'DraftOrder');
    case 'name':
      return textMatch(d.name, t.value.startsWith('#') ? t.value : `#${t.value}`);
    case 'email':
      return d.email !== null && textMatch(d.email, t.value);
    case 'created_at':
      return timeTerm(d.createdAt, t);
    case 'updated_at':
      return timeTerm(d.updatedAt, t);
    default:
      return true;
  }
}

function orderTermMatches(o: EmulatorOrder, t: SearchTerm): boolean {
  switch (t.field) {
    case null:
      return freeText(t, [o.name, o.email, o.note, ...o.tags]);
    case 'tag':
      return o.tags.some((tag) => textMatch(tag, t.value));
    case 'id':
      return idTerm(o.legacyId, t, 'Order');
    case 'name':
      return textMatch(o.name, t.value.startsWith('#') ? t.value : `#${t.value}`);
    case 'email':
      return o.email !== null && textMatch(o.email, t.value);
    case 'financial_status':
      return t.value.toLowerCase() === o.financialStatus.toLowerCase();
    case 'fulfillment_status': {
      const wanted = t.value.toLowerCase();
      const fulfilled = displayFulfillmentStatus(o) === 'FULFILLED';
      return wanted === 'shipped' || wanted === 'fulfilled'
        ? fulfilled
        : wanted === 'unshipped' || wanted === 'unfulfilled'
          ? !fulfilled
          : true;
    }
    case 'created_at':
      return timeTerm(o.createdAt, t);
    case 'updated_at':
      return timeTerm(o.updatedAt, t);
    default:
      return true;
  }
}

export function filterDraftOrders(drafts: readonly EmulatorDraftOrder[], query: string | null | undefined): EmulatorDraftOrder[] {
  const groups = parseProductQuery(query);
  return drafts.filter((d) => matchesSearch(d, groups, draftTermMatches));
}

export function filterOrders(orders: readonly EmulatorOrder[], query: string | null | undefined): EmulatorOrder[] {
  const groups = parseProductQuery(query);
  return orders.filter((o) => matchesSearch(o, groups, orderTermMatches));
}
