import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createAdminSchema } from './admin-resolvers';
import { checkInputSizes } from './input-limits';

const schema = createAdminSchema();
// A minimal draftOrderCreate rather than the shop's own, so the expected error location is plain to
// read; the shop's document meets the same limit in emulator.int.test.ts.
const CREATE = 'mutation Create($input: DraftOrderInput!) {\n  draftOrderCreate(input: $input) { draftOrder { id } }\n}';
const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ variantId: `gid://shopify/ProductVariant/${i + 1}`, quantity: 1 }));

describe('input array limits', () => {
  it('accepts 499 draft lines', () => {
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: lines(499) } })).toEqual([]);
  });

  it('reports an oversized array like Shopify, located at the mutation field', () => {
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: lines(500) } })).toEqual([
      {
        message: 'The input array size of 500 is greater than the maximum allowed of 499.',
        locations: [{ line: 2, column: 3 }],
        path: ['draftOrderCreate', 'input', 'lineItems'],
        extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
      },
    ]);
  });

  it('reads literal arguments and leaves bad variables and queries alone', () => {
    const literal = `mutation { draftOrderCreate(input: { lineItems: [${Array(500).fill('{ variantId: "gid://shopify/ProductVariant/1", quantity: 1 }').join(',')}] }) { userErrors { message } } }`;
    expect(checkInputSizes(schema, parse(literal), undefined)).toHaveLength(1);
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: 'nope' } })).toEqual([]);
    expect(checkInputSizes(schema, parse('{ shop { name } }'), undefined)).toEqual([]);
  });
});
