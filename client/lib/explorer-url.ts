/**
 * A block explorer page for a transaction or an address (`https://basescan.org/tx/0x…`), or null
 * when there is no explorer to link to (see publicExplorerUrl) or nothing to link.
 */
export function explorerUrl(
  explorer: { explorerUrl: string | null | undefined },
  kind: 'tx' | 'address',
  value: string | null | undefined,
): string | null {
  const base = explorer.explorerUrl?.trim().replace(/\/+$/, '');
  if (!base || !value) return null;
  return `${base}/${kind}/${value}`;
}

/**
 * The explorer to link transactions and addresses to, or null on the embedded local chain (the
 * Demo Wallet exists only there), which no public explorer knows. The config's explorerUrl
 * itself stays Base's: wallets are told it when Base is added to them.
 */
export function publicExplorerUrl(config: { explorerUrl: string; demoWallet: boolean }): string | null {
  return config.demoWallet ? null : config.explorerUrl;
}
