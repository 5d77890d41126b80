import { describe, expect, it } from 'vitest';
import { findOutsidePointers } from './outside-pointers';

describe('findOutsidePointers', () => {
  it.each([
    '/** Spec §9: one toast visible at a time. */',
    '// as the spec says',
    '* Writing a paid order (design/payments.md §4–§5).',
    'see ../shared/spec/storefront-spec.md',
    '// Shopify webhooks (reference §5.5)',
    "// Not the contract's §5.3 sample",
    '/** A refund sent back (issue 13). */',
    '## Issue 14: Lighthouse',
    '// closes issues #7',
  ])('flags %j', (line) => {
    expect(findOutsidePointers(`first line\n${line}\n`)).toEqual([{ line: 2, text: line.trim() }]);
  });

  it.each([
    '* How a checkout is made findable (docs/payments.md §1): one wallet',
    "// the client's doing, so its own code (RFC 9110 §15.6.2)",
    '// Sign-In with Ethereum (EIP-4361)',
    '// the spectrum of a shared/lib helper and a design system',
    'const issues = 13;',
  ])('lets %j through', (line) => {
    expect(findOutsidePointers(line)).toEqual([]);
  });
});
