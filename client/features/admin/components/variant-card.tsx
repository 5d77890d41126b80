import { useId, useState, type FormEvent } from 'react';
import type { InventoryItem, InventoryUpdateRequest } from '../../../../common/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { useUpdateInventoryItem } from '../api/update-inventory-item';
import { parsePriceInput, parseStockInput, PRICE_FORMAT_HINT } from '../lib/form-values';
import { isUnpriced } from '../lib/inventory-filter';
import { inShopText } from '../lib/stock-text';
import { ProductFacts } from './product-facts';

/**
 * One variant (Individual View): price, active, available stock and sold out, saved together in
 * one call with only the fields that changed. Keyed by its parent with `variantFormKey`, so a
 * change to what the form edits (a save, another admin's) resets it to what the server holds, and
 * a sync that only rewrites Shopify's fields leaves a half-typed form alone.
 */
export function VariantCard({ item }: { item: InventoryItem }) {
  const update = useUpdateInventoryItem();
  const [price, setPrice] = useState(item.pogPrice ?? '');
  const [isActive, setIsActive] = useState(item.isActive);
  const [stock, setStock] = useState(item.availableStock === null ? '' : String(item.availableStock));
  const [isSoldOut, setIsSoldOut] = useState(item.isSoldOut);
  const [priceInvalid, setPriceInvalid] = useState(false);
  const id = useId();

  const changes = (): InventoryUpdateRequest | 'invalid-price' => {
    const next: InventoryUpdateRequest = {};
    const pogPrice = parsePriceInput(price);
    if (pogPrice === 'invalid') return 'invalid-price';
    if (pogPrice !== item.pogPrice) next.pogPrice = pogPrice;
    if (isActive !== item.isActive) next.isActive = isActive;
    // Blank keeps Shopify's quantity when none was set; otherwise non-numeric becomes 0.
    if (!(stock.trim() === '' && item.availableStock === null)) {
      const availableStock = parseStockInput(stock);
      if (availableStock !== item.availableStock) next.availableStock = availableStock;
    }
    if (isSoldOut !== item.isSoldOut) next.isSoldOut = isSoldOut;
    return next;
  };
  const pending = changes();
  const dirty = pending === 'invalid-price' || Object.keys(pending).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending === 'invalid-price') {
      setPriceInvalid(true);
      return;
    }
    if (Object.keys(pending).length === 0) return;
    update.mutate({ id: item.id, changes: pending });
  };

  const image = item.shopifyData.images[0];
  return (
    <Card className="grid min-w-0 content-start gap-4 p-4" data-testid="variant-card" data-variant-id={item.id}>
      <header className="flex gap-3">
        <div className="size-16 shrink-0 overflow-hidden rounded-xl bg-muted">
          {image ? (
            <img src={image.url} alt={image.alt ?? item.title} loading="lazy" decoding="async" className="size-full object-cover" />
          ) : (
            <div role="img" aria-label="No image" className="flex size-full items-center justify-center text-2xl">
              <span aria-hidden>📦</span>
            </div>
          )}
        </div>
        <div className="grid min-w-0 gap-1">
          <h3 className="leading-snug font-bold break-words" data-testid="variant-title">
            {item.title}
          </h3>
          <p className="text-sm text-muted-foreground">{item.sku?.trim() || 'No SKU'}</p>
          <p className="font-mono text-xs break-all text-muted-foreground">{item.externalId}</p>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant={item.isActive ? 'success' : 'secondary'} data-testid="variant-status">
              {item.isActive ? 'Active' : 'Inactive'}
            </Badge>
            {isUnpriced(item) && <Badge variant="destructive">Not for sale (unpriced)</Badge>}
            {item.inShop.isSoldOut && <Badge variant="outline">Sold out</Badge>}
          </div>
        </div>
      </header>

      <ProductFacts item={item} />

      <form className="grid gap-3" onSubmit={submit}>
        <div className="grid grid-cols-2 gap-3">
          <label className="grid gap-1.5 text-sm font-semibold" htmlFor={`${id}-price`}>
            Price (POG)
            <Input
              id={`${id}-price`}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              placeholder="Not priced"
              value={price}
              onChange={(e) => {
                setPrice(e.target.value);
                setPriceInvalid(false);
              }}
              aria-invalid={priceInvalid}
              data-testid="variant-price-input"
            />
          </label>
          <label className="grid gap-1.5 text-sm font-semibold" htmlFor={`${id}-stock`}>
            Available stock
            <Input
              id={`${id}-stock`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              placeholder={item.quantity === null ? 'Not tracked' : `Shopify: ${item.quantity}`}
              value={stock}
              onChange={(e) => setStock(e.target.value)}
              data-testid="variant-stock-input"
            />
          </label>
        </div>
        {priceInvalid && <p className="text-sm text-destructive">{PRICE_FORMAT_HINT}</p>}
        <p className="text-sm text-muted-foreground" data-testid="variant-in-shop">
          {inShopText(item.inShop)}
        </p>
        <div className="flex items-center justify-between gap-3">
          <span id={`${id}-active`} className="text-sm font-semibold">
            Active
          </span>
          <Switch checked={isActive} onCheckedChange={setIsActive} aria-labelledby={`${id}-active`} data-testid="variant-active-switch" />
        </div>
        <div className="flex items-center justify-between gap-3">
          <span id={`${id}-sold-out`} className="text-sm font-semibold">
            Sold out
          </span>
          <Switch
            checked={isSoldOut}
            onCheckedChange={setIsSoldOut}
            aria-labelledby={`${id}-sold-out`}
            data-testid="variant-sold-out-switch"
          />
        </div>
        <Button type="submit" disabled={!dirty || update.isPending} data-testid="variant-save">
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </form>
    </Card>
  );
}
