export function Web3Footer({ currencyLabel, chainName }: { currencyLabel: string; chainName: string }) {
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto max-w-7xl px-4 py-8 text-center text-sm text-muted-foreground sm:px-6 lg:px-8">
        <p>
          Powered by web3 technology: payments in {currencyLabel} are made from your own wallet and settle on the {chainName} blockchain.
        </p>
        <p className="mt-1">Catalogue, orders and shipping run through our Shopify storefront integration.</p>
      </div>
    </footer>
  );
}
