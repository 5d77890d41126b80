import { Inbox, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { WebhookDelivery } from '../../../../common/outgoing-webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { adminErrorText } from '../api/admin-errors';
import { useDeliveries } from '../api/webhooks';
import {
  attemptsText,
  dateTimeText,
  DELIVERY_FILTERS,
  deliveryFilterParams,
  deliveryStatusLabel,
  deliveryStatusTone,
  mergeDeliveryPages,
  readDeliveryFilter,
  responseText,
} from '../lib/webhook-text';
import { LoadMore, When } from './desk-bits';
import { WebhookDeliverySheet } from './webhook-delivery-sheet';

/**
 * An endpoint's deliveries, newest first, 50 at a time ('Load more'), all or one status (the
 * filter lives in the address, ?status=). A delivery opens in a sheet.
 */
export function WebhookDeliveryLog({ endpointId }: { endpointId: string }) {
  const [params, setParams] = useSearchParams();
  const status = readDeliveryFilter(params);
  const log = useDeliveries(endpointId, status);
  const deliveries = mergeDeliveryPages(log.data?.pages);
  const [open, setOpen] = useState<WebhookDelivery | null>(null);

  return (
    <section className="grid gap-4" aria-labelledby="webhook-log-heading" data-testid="webhook-log">
      <h2 id="webhook-log-heading" className="text-2xl font-black tracking-tight">
        Deliveries
      </h2>
      <div role="group" aria-label="Status" className="flex flex-wrap gap-2">
        {DELIVERY_FILTERS.map((filter) => (
          <Button
            key={filter.label}
            size="sm"
            variant={status === filter.status ? 'default' : 'outline'}
            aria-pressed={status === filter.status}
            onClick={() => setParams(deliveryFilterParams(filter.status, params), { replace: true })}
            data-testid={`webhook-filter-${filter.status ?? 'all'}`}
          >
            {filter.label}
          </Button>
        ))}
      </div>

      {deliveries === undefined && log.isError && (
        <Card role="alert" className="grid justify-items-start gap-2 p-5" data-testid="webhook-log-error">
          <p className="flex items-center gap-2 font-semibold">
            <TriangleAlert aria-hidden className="size-5 text-destructive" /> Could not load the deliveries
          </p>
          <p className="text-sm break-words text-muted-foreground">{adminErrorText(log.error, log.error.message)}</p>
          <Button variant="outline" onClick={() => void log.refetch()} disabled={log.isFetching}>
            <RefreshCw aria-hidden className={log.isFetching ? 'motion-safe:animate-spin' : undefined} />
            Try again
          </Button>
        </Card>
      )}
      {deliveries === undefined && !log.isError && (
        <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
          <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" /> Loading...
        </p>
      )}
      {deliveries?.length === 0 && (
        <Card className="grid justify-items-center gap-2 p-8 text-center" data-testid="webhook-log-empty">
          <Inbox aria-hidden className="size-8 text-muted-foreground" />
          <p className="font-bold">{status ? `No ${deliveryStatusLabel(status).toLowerCase()} deliveries` : 'No deliveries yet'}</p>
          <p className="text-sm text-muted-foreground">Each event this endpoint takes shows here.</p>
        </Card>
      )}
      {deliveries && deliveries.length > 0 && (
        <ol className="grid gap-2" data-testid="webhook-deliveries">
          {deliveries.map((delivery) => (
            <li key={delivery.id}>
              <DeliveryRow delivery={delivery} onOpen={() => setOpen(delivery)} />
            </li>
          ))}
        </ol>
      )}
      <LoadMore pages={log} failText="Could not load more deliveries. Try again." testId="webhook-log-load-more" />
      {open && <WebhookDeliverySheet delivery={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

function DeliveryRow({ delivery, onOpen }: { delivery: WebhookDelivery; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="grid w-full gap-1 rounded-(--radius-cap) border border-border bg-card p-3 text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring sm:p-4"
      data-testid="webhook-delivery"
      data-delivery-id={delivery.id}
      data-event-id={delivery.eventId}
      data-status={delivery.status}
    >
      <span className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-mono text-sm font-semibold break-all">{delivery.eventType}</span>
        <Badge variant={deliveryStatusTone(delivery.status)}>{deliveryStatusLabel(delivery.status)}</Badge>
      </span>
      <span className="font-mono text-xs break-all text-muted-foreground" data-testid="webhook-delivery-event-id">
        {delivery.eventId}
      </span>
      <span className="flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-muted-foreground">
        <span>{attemptsText(delivery.attempts)}</span>
        <span>{delivery.lastAttemptAt ? responseText(delivery.lastResponseStatus) : 'Not tried yet'}</span>
        <span>
          Created <When at={delivery.createdAt} />
        </span>
        {delivery.deliveredAt && (
          <span>
            Delivered <When at={delivery.deliveredAt} />
          </span>
        )}
        {!delivery.deliveredAt && delivery.nextAttemptAt && (
          <span>
            Next try <time dateTime={delivery.nextAttemptAt}>{dateTimeText(delivery.nextAttemptAt)}</time>
          </span>
        )}
      </span>
    </button>
  );
}
