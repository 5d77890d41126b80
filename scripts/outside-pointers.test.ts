import { describe, expect, it } from 'vitest';
import { findOutsidePointers } from './outside-pointers';

/**
 * The examples are written with placeholders, filled in when the test runs, so that this file does
 * not itself carry the pointers it shows being found.
 */
const PARTS: Record<string, string> = {
  SECTION: '\u00a7',
  SPEC: 'spec',
  ISSUE: 'issue',
  SHARED: '../shared',
  DESIGN: 'design/',
  HEADING: 'Issue',
};
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => PARTS[name]!);

describe('findOutsidePointers', () => {
  it.each([
    '/** Spec {SECTION}9: one toast visible at a time. */',
    '// as the {SPEC} says',
    '* Writing a paid order ({DESIGN}payments.md {SECTION}4–{SECTION}5).',
    'see {SHARED}/{SPEC}/shop.md',
    '// Shopify webhooks (reference {SECTION}5.5)',
    "// Not the contract's {SECTION}5.3 sample",
    '/** A refund sent back ({ISSUE} 13). */',
    '## {HEADING} 14: Lighthouse',
    '// closes {ISSUE}s #7',
  ])('flags %j', (template) => {
    const line = fill(template);
    expect(findOutsidePointers(`first line\n${line}\n`)).toEqual([{ line: 2, text: line.trim() }]);
  });

  it.each([
    '* How a checkout is made findable (docs/payments.md {SECTION}1): one wallet',
    "// the client's doing, so its own code (RFC 9110 {SECTION}15.6.2)",
    '// Sign-In with Ethereum (EIP-4361)',
    '// the spectrum of a shared/lib helper and a design system',
    'const issues = 13;',
  ])('lets %j through', (template) => {
    expect(findOutsidePointers(fill(template))).toEqual([]);
  });
});
