import { ChevronDown, ChevronUp, Pencil, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { useBulkUpdate } from '../api/update-inventory-item';
import { parsePriceInput, PRICE_FORMAT_HINT } from '../lib/form-values';
import { countUnpriced, isUnpriced } from '../lib/inventory-filter';
import type { ProductGroup } from '../lib/product-groups';
import { EditTitleDialog } from './edit-title-dialog';
import { ImageCarousel } from './image-carousel';
import { ProductFacts } from './product-facts';
import { UsdReferenceFigure as UsdReference } from '../../../components/ui/usd-reference-figure';

/**
 * A product group card: one Shopify product, its status, title editing, bulk price
 * and status (each on exactly the product's variants), and its variants.
 */
export function GroupCard({ group }: { group: ProductGroup }) {
  const [expanded, setExpanded] = useState(false);
  const [titleOpen, setTitleOpen] = useState(false);
  const bulk = useBulkUpdate();
  const ids = group.variants.map((v) => v.id);
  const unpriced = countUnpriced(group.variants);
  const listId = useId();

  const setAllActive = (isActive: boolean) => bulk.mutate({ ids, changes: { isActive } });

  return (
    <Card
      className="grid min-w-0 content-start overflow-hidden"
      data-testid="group-card"
      data-group-title={group.title}
      data-product-id={group.productId}
    >
      <ImageCarousel images={group.images} title={group.title} />
      <div className="grid gap-4 p-4">
        <header className="grid gap-2">
          <h2 className="text-lg leading-snug font-bold break-words" data-testid="group-title">
            {group.title}
          </h2>
          {group.customTitle !== null && (
            <p className="text-xs text-muted-foreground">
              Shopify title: <span className="font-semibold">{group.originalTitle}</span>
            </p>
          )}
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="secondary" data-testid="variant-count">
              {group.variants.length} {group.variants.length === 1 ? 'variant' : 'variants'}
            </Badge>
            {group.allActive ? (
              <Badge variant="success" data-testid="group-status">
                All Active
              </Badge>
            ) : (
              <Badge variant="warning" data-testid="group-status">
                Mixed Status
              </Badge>
            )}
            {unpriced > 0 && (
              <Badge variant="destructive" data-testid="group-unpriced">
                {unpriced} not for sale (unpriced)
              </Badge>
            )}
          </div>
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={() => setTitleOpen(true)}
            data-testid="edit-title-button"
          >
            {group.customTitle === null ? <Plus aria-hidden /> : <Pencil aria-hidden />}
            {group.customTitle === null ? 'Add Custom Title' : 'Edit Title'}
          </Button>
        </header>

        <ProductFacts item={group.base} />

        <BulkPriceForm disabled={bulk.isPending} onSubmit={(pogPrice) => bulk.mutate({ ids, changes: { pogPrice } })} />

        <div className="flex items-center justify-between gap-3">
          <span className="text-sm font-semibold" id={`${listId}-status`}>
            {group.allActive ? 'All variants active' : 'Some variants inactive'}
          </span>
          <Switch
            checked={group.allActive}
            onCheckedChange={setAllActive}
            disabled={bulk.isPending}
            aria-labelledby={`${listId}-status`}
            data-testid="group-status-switch"
          />
        </div>
        <Button
          variant={group.allActive ? 'outline' : 'default'}
          onClick={() => setAllActive(!group.allActive)}
          disabled={bulk.isPending}
          data-testid="group-toggle-all"
        >
          {group.allActive ? 'Deactivate All Variants' : 'Activate All Variants'}
        </Button>

        <Button
          variant="ghost"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((e) => !e)}
          data-testid="group-expand"
        >
          {expanded ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
          {expanded ? 'Collapse Variants' : 'Expand Variants'}
        </Button>
        {expanded && (
          <ul id={listId} className="grid gap-2" data-testid="group-variants">
            {group.variants.map((variant) => (
              <li
                key={variant.id}
                className="grid gap-1 rounded-xl border border-border p-3 text-sm"
                data-testid="group-variant"
                data-variant-id={variant.id}
              >
                <div className="flex items-start justify-between gap-2">
                  <span className="min-w-0 font-semibold break-words">{variant.variantTitle || variant.title}</span>
                  <span className="flex shrink-0 gap-1">
                    {variant.inShop.isSoldOut && <Badge variant="outline">Sold out</Badge>}
                    <Badge variant={variant.isActive ? 'success' : 'secondary'} data-testid="variant-status">
                      {variant.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </span>
                </div>
                <span className="text-muted-foreground">{variant.sku?.trim() || 'No SKU'}</span>
                <span className="font-mono text-xs break-all text-muted-foreground">{variant.externalId}</span>
                <span className="font-semibold tabular-nums" data-testid="variant-price">
                  {isUnpriced(variant) ? 'Not priced (not for sale)' : formatPogPrice(variant.pogPrice)}
                </span>
                {!isUnpriced(variant) && <UsdReference pogs={variant.pogPrice} className="text-xs" />}
              </li>
            ))}
          </ul>
        )}
      </div>
      <EditTitleDialog
        open={titleOpen}
        onOpenChange={setTitleOpen}
        product={{ originalTitle: group.originalTitle, productId: group.productId }}
        customTitle={group.customTitle}
      />
    </Card>
  );
}

/** The uniform POG price: Update is disabled for a blank input, and the input clears once sent. */
function BulkPriceForm({ disabled, onSubmit }: { disabled: boolean; onSubmit: (pogPrice: string) => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const price = parsePriceInput(value);
    if (price === null) return;
    if (price === 'invalid') {
      setInvalid(true);
      return;
    }
    onSubmit(price);
    setValue('');
    setInvalid(false);
  };
  return (
    <form className="grid gap-1.5" onSubmit={submit}>
      <label htmlFor={id} className="text-sm font-semibold">
        POG price for all variants
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder="e.g. 25.00"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setInvalid(false);
          }}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${id}-error` : undefined}
          enterKeyHint="done"
          data-testid="bulk-price-input"
        />
        <Button type="submit" disabled={disabled || value.trim() === ''} data-testid="bulk-price-update">
          Update
        </Button>
      </div>
      {invalid && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {PRICE_FORMAT_HINT}
        </p>
      )}
    </form>
  );
}
