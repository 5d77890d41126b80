/** Cart shapes from spec §3 (the cart API arrives with the cart issue; not in common/api.ts yet). */
export interface CartItem {
  id: string;
  title: string;
  image: string | null;
  price: string;
  quantity: number;
}

export interface Cart {
  items: CartItem[];
  /** Total in POG, a decimal string. */
  total: string;
}
