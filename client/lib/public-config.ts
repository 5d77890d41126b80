import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../common/api';
import { apiFetch } from './api-client';

export const configQueryKey = ['config'] as const;

/**
 * The public config (GET /api/config): names, chain, explorer, token and store wallet. Shared by
 * every feature (the catalogue's texts, the wallet, checkout and the order pages), so it lives here.
 */
export function getConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return apiFetch<PublicConfig>('/api/config', { signal });
}

export function configQueryOptions() {
  return queryOptions({
    queryKey: configQueryKey,
    queryFn: ({ signal }) => getConfig(signal),
    networkMode: 'offlineFirst',
    staleTime: 5 * 60_000,
  });
}

export function useConfig() {
  return useQuery(configQueryOptions());
}

/**
 * The names the shop's texts need, usable before /api/config answers (branding, not data).
 * Links (brand, community, explorer) are only shown once the real config is known.
 */
export const FALLBACK_NAMES = {
  shopName: 'POGS Shop',
  productName: 'POGS',
  currencyLabel: '$POGS',
  tokenSymbol: 'POG',
  chainName: 'Base',
} as const;

export type ShopNames = { [K in keyof typeof FALLBACK_NAMES]: string };

export function useShopNames(): ShopNames {
  const { data } = useConfig();
  return data
    ? {
        shopName: data.shopName,
        productName: data.productName,
        currencyLabel: data.currencyLabel,
        tokenSymbol: data.tokenSymbol,
        chainName: data.chainName,
      }
    : FALLBACK_NAMES;
}
