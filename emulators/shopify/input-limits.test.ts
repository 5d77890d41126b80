import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createAdminSchema } from './admin-resolvers';
import { checkInputSizes } from './input-limits';

const schema = createAdminSchema();
const CREATE = 'mutation Create($input: DraftOrderInput!) {\n  draftOrderCreate(input: $input) { draftOrder { id } }\n}';
const lines = (n: number) => Array.from({ length: n }, () => ({ title: 'x', quantity: 1 }));

describe('input array limits', () => {
  it('accepts 499 draft lines and 250 tags', () => {
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: lines(499), tags: Array(250).fill('t') } })).toEqual([]);
  });

  it('reports each oversized array like Shopify, located at the mutation field', () => {
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: lines(500), tags: Array(251).fill('t') } })).toEqual([
      {
        message: 'The input array size of 500 is greater than the maximum allowed of 499.',
        locations: [{ line: 2, column: 3 }],
        path: ['draftOrderCreate', 'input', 'lineItems'],
        extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
      },
      {
        message: 'The input array size of 251 is greater than the maximum allowed of 250.',
        locations: [{ line: 2, column: 3 }],
        path: ['draftOrderCreate', 'input', 'tags'],
        extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
      },
    ]);
  });

  it('reads literal arguments and leaves bad variables and queries alone', () => {
    const literal = `mutation { draftOrderCreate(input: { lineItems: [${Array(500).fill('{ title: "x", quantity: 1 }').join(',')}] }) { userErrors { message } } }`;
    expect(checkInputSizes(schema, parse(literal), undefined)).toHaveLength(1);
    expect(checkInputSizes(schema, parse(CREATE), { input: { lineItems: 'nope' } })).toEqual([]);
    expect(checkInputSizes(schema, parse('{ shop { name } }'), undefined)).toEqual([]);
  });
});
