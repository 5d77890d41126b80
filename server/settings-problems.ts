/**
 * Which settings go together: the chain's beside a Shopify store's (a live shop has both, the
 * local demo neither), and the Shopify app's credential with its store. loadConfig (config.ts)
 * reports what these find.
 */
/**
 * Outside production: real settings on one side only would run real things beside demo ones
 * (`given` names the chain and store settings that are set). Each problem says what to add for a
 * live shop, or what to remove for the local demo. Partial sides are reported by loadConfig.
 */
export function mixedModeProblems(given: { chain: readonly string[]; store: readonly string[]; clientSecret: boolean }): string[] {
  const { chain, store, clientSecret } = given;
  if (chain.length && !store.length) {
    return [
      `real chain settings are given (${chain.join(', ')}) but no Shopify store: real payments would make orders in the local Shopify emulator, which ships nothing, and the emulator and its controls would be open beside them. Add SHOPIFY_STORE_DOMAIN, SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET (or a legacy app's SHOPIFY_ADMIN_TOKEN) to run live, or remove ${chain.join(', ')} to run the local demo`,
    ];
  }
  if (store.length && !chain.length) {
    return [
      `a Shopify store is given (${store.join(', ')}) but no real chain: the local chain's free demo tokens and its Demo Wallet would create real Shopify orders. Add BASE_RPC_URL, POG_TOKEN_ADDRESS and STORE_WALLET_ADDRESS to run live, or remove ${store.join(', ')} to run the local demo`,
    ];
  }
  if (clientSecret && !store.length && !chain.length) {
    return [
      "SHOPIFY_CLIENT_SECRET is a real Shopify app's webhook key but no store is given: add SHOPIFY_STORE_DOMAIN and SHOPIFY_CLIENT_ID (or a legacy app's SHOPIFY_ADMIN_TOKEN) and the chain settings to run live, or remove it to run the local demo (the emulator makes its own secret in DATA_DIR)",
    ];
  }
  return [];
}

/** What production and a live shop are told when the Shopify app's credential is missing. */
export const SHOPIFY_CREDENTIAL_MISSING =
  "the Shopify app's credential is missing: set SHOPIFY_CLIENT_ID (with SHOPIFY_CLIENT_SECRET) for an app made in Shopify's Dev Dashboard, or SHOPIFY_ADMIN_TOKEN for a legacy custom app's shpat_ token";

/**
 * The Shopify credential's own rules: one kind or the other, never both; a client id goes with its
 * secret; a credential goes with its store and a store with its credential.
 */
export function shopifyCredentialProblems({ production, isSet }: { production: boolean; isSet: (key: string) => boolean }): string[] {
  const problems: string[] = [];
  const clientId = isSet('SHOPIFY_CLIENT_ID');
  const token = isSet('SHOPIFY_ADMIN_TOKEN');
  const domain = isSet('SHOPIFY_STORE_DOMAIN');
  if (clientId && token) {
    problems.push(
      'both SHOPIFY_CLIENT_ID and SHOPIFY_ADMIN_TOKEN are set: give one kind of Shopify credential, the client id (an app made in the Dev Dashboard) or the token (a legacy custom app), not both',
    );
  }
  if (clientId && !isSet('SHOPIFY_CLIENT_SECRET') && !production) {
    problems.push("SHOPIFY_CLIENT_ID needs SHOPIFY_CLIENT_SECRET: both are on the app's Settings page in Shopify's Dev Dashboard");
  }
  if ((production || domain) && !clientId && !token) problems.push(SHOPIFY_CREDENTIAL_MISSING);
  if (!domain && (clientId || token) && !production) {
    problems.push(
      `${clientId ? 'SHOPIFY_CLIENT_ID' : 'SHOPIFY_ADMIN_TOKEN'} needs SHOPIFY_STORE_DOMAIN (your-shop.myshopify.com), the store it is for`,
    );
  }
  return problems;
}
