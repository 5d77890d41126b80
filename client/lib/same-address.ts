/** Whether two wallet addresses are the same account (case-insensitive: checksummed or not). */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
}
