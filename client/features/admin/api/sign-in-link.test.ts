import { describe, expect, it } from 'vitest';
import { signInLinkOf } from './sign-in-link';

describe('signInLinkOf', () => {
  it('reads the operator’s link from the fragment, and nothing else', () => {
    expect(signInLinkOf('#sign-in=abc.123.def')).toBe('abc.123.def');
    expect(signInLinkOf('sign-in=abc.123.def')).toBe('abc.123.def');
    expect(signInLinkOf('#other=1&sign-in=abc')).toBe('abc');
    expect(signInLinkOf('')).toBeNull();
    expect(signInLinkOf('#sign-in=')).toBeNull();
    expect(signInLinkOf('#section')).toBeNull();
  });
});
