import type { Connection } from '../../../lib/online-status';

const without = (connection: Exclude<Connection, 'online'>) => (connection === 'offline' ? "You're offline" : "Can't reach the shop");

/**
 * The home's line while the shop cannot reach its server: how many products this device has
 * saved for offline browsing (what the home and the product pages can show), or that it has none.
 */
export function savedOfflineText(connection: Exclude<Connection, 'online'>, products: number, saveRefused: boolean): string {
  const refused = saveRefused ? " This browser didn't let the shop save more on this device." : '';
  if (products === 0) {
    const next = connection === 'offline' ? 'Connect to the internet to browse the shop.' : 'The shop shows again once it answers.';
    return `${without(connection)} — no products are saved on this device. ${next}${refused}`;
  }
  return `${without(connection)} — showing the ${products} ${products === 1 ? 'product' : 'products'} saved on this device.${refused}`;
}

/** A product page the device has not saved, while the shop cannot reach its server. */
export function notSavedText(connection: Exclude<Connection, 'online'>): string {
  const next = connection === 'offline' ? 'Connect to the internet to see it.' : 'Try again once the shop answers.';
  return `${without(connection)}, and this product isn't saved on this device for offline browsing. ${next}`;
}

/**
 * Next to the home's results while a search, a filter or a sort is applied on the device: they
 * are the matches among the products it saved, and the whole shop is searched again once it
 * answers.
 */
export function savedResultsText(connection: Exclude<Connection, 'online'>, products: number): string {
  const next =
    connection === 'offline' ? 'Connect to the internet to search the whole shop.' : 'The whole shop is searched again once it answers.';
  return `Results from the ${products} ${products === 1 ? 'product' : 'products'} saved on this device. ${next}`;
}
