/**
 * A block explorer page for a transaction or an address (`https://basescan.org/tx/0x…`), or null
 * when there is no public explorer to link to: no explorer configured, or local mode, whose
 * embedded chain no public explorer knows.
 */
export function explorerUrl(
  explorer: { explorerUrl: string | null | undefined; local?: boolean },
  kind: 'tx' | 'address',
  value: string | null | undefined,
): string | null {
  const base = explorer.explorerUrl?.trim().replace(/\/+$/, '');
  if (!base || explorer.local || !value) return null;
  return `${base}/${kind}/${value}`;
}
