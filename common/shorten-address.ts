/** The separator between the kept head and tail of a shortened address. */
export const ADDRESS_ELLIPSIS = '...';

/**
 * A wallet address for display (the wallet button, the order pages): the first 6 and last 4 characters joined by '...',
 * e.g. 0x1234...abcd. Strings too short to gain anything are returned unchanged (trimmed).
 */
export function shortenAddress(address: string | null | undefined): string {
  if (typeof address !== 'string') return '';
  const value = address.trim();
  if (value.length <= 6 + ADDRESS_ELLIPSIS.length + 4) return value;
  return `${value.slice(0, 6)}${ADDRESS_ELLIPSIS}${value.slice(-4)}`;
}
