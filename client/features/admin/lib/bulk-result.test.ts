import { describe, expect, it } from 'vitest';
import { summariseBulk } from './bulk-result';

const ok = (): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value: null });
const failed = (): PromiseSettledResult<unknown> => ({ status: 'rejected', reason: new Error('no') });

describe('summariseBulk', () => {
  it("reports 'Updated all {n} variants' when every call succeeded", () => {
    expect(summariseBulk([ok(), ok(), ok()])).toEqual({
      succeeded: 3,
      failed: 0,
      title: 'Success',
      description: 'Updated all 3 variants',
      variant: 'default',
    });
  });

  it("reports 'Failed to update {n} variants' with the number that failed", () => {
    expect(summariseBulk([ok(), failed(), failed(), ok()])).toEqual({
      succeeded: 2,
      failed: 2,
      title: 'Error',
      description: 'Failed to update 2 variants',
      variant: 'destructive',
    });
    expect(summariseBulk([failed()]).description).toBe('Failed to update 1 variants');
  });
});
