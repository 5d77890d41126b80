import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PRODUCTS_PAGE_QUERY, WEBHOOK_SUBSCRIPTIONS_QUERY } from '../../server/shopify';
import { createAdminSchema } from './admin-resolvers';
import { calculateActualCost, calculateRequestedCost, MAX_QUERY_COST } from './query-cost';

const schema = createAdminSchema();
const requested = (query: string, variables?: Record<string, unknown>) => calculateRequestedCost(schema, parse(query), variables);
const actual = (query: string, data: Record<string, unknown>) => calculateActualCost(schema, parse(query), undefined, undefined, data);

describe('requested query cost', () => {
  it('charges 1 per object and nothing for scalars', () => {
    expect(requested('{ shop { name currencyCode } }')).toBe(1);
    expect(requested('{ shop { name } product(id: "gid://shopify/Product/1") { title featuredMedia { id } } }')).toBe(3);
    expect(requested('{ __typename }')).toBe(0);
  });

  it('charges a connection 2 plus its page size, from literals or variables', () => {
    expect(requested('{ products(first: 10) { nodes { id title } } }')).toBe(12);
    expect(requested('query ($n: Int!) { products(first: $n) { nodes { id } } }', { n: 37 })).toBe(39);
  });

  it('multiplies nested connections by the outer page size', () => {
    expect(requested('{ products(first: 10) { nodes { variants(first: 5) { nodes { id } } } } }')).toBe(12 + 10 * 7);
    expect(requested('{ products(first: 3) { nodes { media(first: 4) { nodes { id } } variants(first: 5) { nodes { id } } } } }')).toBe(
      5 + 3 * 6 + 3 * 7,
    );
  });

  it('does not double count nodes selected twice under aliases', () => {
    const both = '{ products(first: 10) { ids: nodes { id } nodes { variants(first: 5) { nodes { id } } } pageInfo { hasNextPage } } }';
    expect(requested(both)).toBe(12 + 10 * 7);
  });

  it('prices the catalogue page near its ~670-point budget', () => {
    const cost = requested(PRODUCTS_PAGE_QUERY, { first: 10, variantsFirst: 50, mediaFirst: 10 });
    expect(cost).toBe(657);
    expect(cost).toBeLessThanOrEqual(MAX_QUERY_COST);
    expect(requested(PRODUCTS_PAGE_QUERY, { first: 50, variantsFirst: 50, mediaFirst: 10 })).toBeGreaterThan(MAX_QUERY_COST);
  });

  it('prices the shop’s webhook subscription check as one connection', () => {
    expect(requested(WEBHOOK_SUBSCRIPTIONS_QUERY, { first: 50, topics: ['ORDERS_CREATE', 'ORDERS_PAID'] })).toBe(52);
    expect(requested(WEBHOOK_SUBSCRIPTIONS_QUERY, { first: 10 })).toBe(12);
  });

  it('rejects page sizes above 250 like Shopify', () => {
    expect(() => requested('{ products(first: 251) { nodes { id } } }')).toThrow(
      "Argument 'first' on Field 'products' has an invalid value (251). Expected a page size from 0 to 250.",
    );
    expect(() => requested('{ products(first: 1) { nodes { variants(first: 300) { nodes { id } } } } }')).toThrow(
      /'first' on Field 'variants'/,
    );
    expect(requested('{ products(first: 250) { nodes { id } } }')).toBe(252);
  });
});

describe('mutation cost', () => {
  // Not the shop's draftOrderCreate: it selects a nested object on purpose, to show the payload
  // costs nothing extra.
  const create =
    'mutation ($input: DraftOrderInput!) { draftOrderCreate(input: $input) { draftOrder { id order { id } } userErrors { field message } } }';

  it('is a flat 10 per mutation field, requested and actual, whatever the payload selects', () => {
    expect(requested(create, { input: {} })).toBe(10);
    const two = `mutation {
      a: draftOrderCreate(input: {}) { draftOrder { id order { id } } userErrors { message } }
      b: webhookSubscriptionCreate(topic: ORDERS_CREATE, webhookSubscription: { uri: "https://x.test" }) { userErrors { message } }
    }`;
    expect(requested(two)).toBe(20);
    expect(actual(two, { a: { draftOrder: null, userErrors: [] }, b: { userErrors: [] } })).toBe(20);
  });
});

describe('actual query cost', () => {
  const query = '{ products(first: 10) { nodes { featuredMedia { id } variants(first: 5) { nodes { id } } } } }';

  it('counts the objects actually returned', () => {
    const data = {
      products: {
        nodes: [
          { featuredMedia: { id: 'm1' }, variants: { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } },
          { featuredMedia: null, variants: { nodes: [{ id: 'd' }] } },
        ],
      },
    };
    // products 2+2, featuredMedia once, variants (2+3) + (2+1)
    expect(actual(query, data)).toBe(4 + 1 + 5 + 3);
  });

  it('is far below the requested cost for a short page', () => {
    expect(actual(query, { products: { nodes: [] } })).toBe(2);
    expect(requested(query)).toBe(12 + 1 + 10 * 7);
  });
});
