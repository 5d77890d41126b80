import { useEffect } from 'react';

/** Sets the tab title while the page is shown ('{page} · {shop}', or the shop name alone). */
export function useDocumentTitle(page: string | null, shopName = 'POGS Shop'): void {
  useEffect(() => {
    document.title = page ? `${page} · ${shopName}` : shopName;
  }, [page, shopName]);
}
