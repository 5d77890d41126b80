/** What a bulk action on a group reports: one notice for all its calls. */
export interface BulkSummary {
  succeeded: number;
  failed: number;
  title: string;
  description: string;
  variant: 'default' | 'destructive';
}

/** Sums up the group's parallel calls: 'Updated all {n} variants', or 'Failed to update {n} variants' for the failures. */
export function summariseBulk(results: readonly PromiseSettledResult<unknown>[]): BulkSummary {
  const failed = results.filter((r) => r.status === 'rejected').length;
  const succeeded = results.length - failed;
  if (failed === 0) {
    return { succeeded, failed, title: 'Success', description: `Updated all ${succeeded} variants`, variant: 'default' };
  }
  return { succeeded, failed, title: 'Error', description: `Failed to update ${failed} variants`, variant: 'destructive' };
}
