/**
 * Pointers to documents a person who clones the project does not have: the product's specification
 * and design notes it was built from, and the tracker's issue numbers. The project states its rules
 * itself, in the code's comments or in docs/; links into docs/ (with their § numbers) and public
 * standards (RFC 9110 §15.6.2, EIP-4361) are fine.
 */
const OUTSIDE = [
  /\b[Ss]pec(?:'s)? §/,
  /\b(?:the|product|storefront) spec\b(?!\w)/i,
  /storefront-[s]pec/, // (a class, so this line does not match itself)
  /(?:\.\.\/|\b)shared\/(?:spec|design|reference|hooks)\b/,
  /(?<!docs\/)\bdesign\/[\w-]+\.md/,
  /\b(?:reference|contract)(?:'s)? (?:§|section \d)/i,
  /\bissues? #?\d+\b/i,
];

export interface OutsidePointer {
  line: number;
  text: string;
}

/** Every line of `text` that points outside the project, numbered from 1. */
export function findOutsidePointers(text: string): OutsidePointer[] {
  const found: OutsidePointer[] = [];
  text.split('\n').forEach((line, index) => {
    if (OUTSIDE.some((pattern) => pattern.test(line))) found.push({ line: index + 1, text: line.trim() });
  });
  return found;
}
