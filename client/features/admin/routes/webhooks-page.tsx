import { ArrowLeft, LoaderCircle, Plus, RefreshCw, TriangleAlert, Webhook } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from '../../../../common/outgoing-webhooks';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { adminErrorText } from '../api/admin-errors';
import { useWebhookEndpoints } from '../api/webhooks';
import { RedeliverFailedForm } from '../components/redeliver-failed-form';
import { WebhookDeliveryLog } from '../components/webhook-delivery-log';
import { WebhookEndpointCard, type EndpointAction } from '../components/webhook-endpoint-card';
import { WebhookEndpointDialog } from '../components/webhook-endpoint-dialog';
import { WebhookRotateDialog } from '../components/webhook-rotate-dialog';

const page = 'mx-auto grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6';

/** The dialogs an endpoint's actions open; `add` has no endpoint yet. */
type Open = { action: 'add' } | { action: EndpointAction; endpoint: WebhookEndpoint } | null;

function EndpointDialogs({ open, onClose }: { open: Open; onClose: () => void }) {
  if (open?.action === 'add') return <WebhookEndpointDialog endpoint={null} onClose={onClose} />;
  if (open?.action === 'edit') return <WebhookEndpointDialog endpoint={open.endpoint} onClose={onClose} />;
  if (open?.action === 'rotate') return <WebhookRotateDialog endpoint={open.endpoint} onClose={onClose} />;
  return null;
}

/** /admin/webhooks: the merchant's endpoints, each with its state and counts, and 'Add endpoint'. */
export function WebhooksPage() {
  const endpoints = useWebhookEndpoints();
  const [open, setOpen] = useState<Open>(null);
  const full = (endpoints.data?.length ?? 0) >= MAX_WEBHOOK_ENDPOINTS;

  return (
    <div className={page} data-testid="webhooks-page">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-black tracking-tight">Webhooks</h1>
        <Button onClick={() => setOpen({ action: 'add' })} disabled={!endpoints.data || full} data-testid="webhook-add">
          <Plus aria-hidden />
          Add endpoint
        </Button>
      </header>
      {full && <p className="text-sm text-muted-foreground">At most {MAX_WEBHOOK_ENDPOINTS} endpoints: edit one to point it elsewhere.</p>}
      <EndpointsState query={endpoints} />
      {endpoints.data?.length === 0 && (
        <Card className="grid justify-items-center gap-2 p-8 text-center" data-testid="webhooks-empty">
          <span className="flex size-14 items-center justify-center rounded-full bg-muted">
            <Webhook aria-hidden className="size-7" />
          </span>
          <p className="text-lg font-bold">No endpoints yet</p>
          <p className="max-w-md text-sm text-muted-foreground">
            A webhook sends your own systems a signed message when an order is paid, confirmed, shipped or refunded, a payment needs you, or
            the catalogue syncs.
          </p>
        </Card>
      )}
      {endpoints.data && endpoints.data.length > 0 && (
        <ul className="grid gap-3" data-testid="webhook-endpoints">
          {endpoints.data.map((endpoint) => (
            <li key={endpoint.id}>
              <WebhookEndpointCard endpoint={endpoint} onAction={(action, target) => setOpen({ action, endpoint: target })} />
            </li>
          ))}
        </ul>
      )}
      <EndpointDialogs open={open} onClose={() => setOpen(null)} />
    </div>
  );
}

/** /admin/webhooks/:id: one endpoint, 'Redeliver failed since…', and its delivery log. */
export function WebhookLogPage() {
  const { id = '' } = useParams();
  const endpoints = useWebhookEndpoints();
  const endpoint = endpoints.data?.find((e) => e.id === id);
  const [open, setOpen] = useState<Open>(null);

  return (
    <div className={page} data-testid="webhook-log-page">
      <header className="grid gap-2">
        <Link
          to="/admin/webhooks"
          className={`${buttonVariants({ variant: 'ghost', size: 'sm' })} justify-self-start`}
          data-testid="webhooks-back"
        >
          <ArrowLeft aria-hidden />
          All endpoints
        </Link>
        <h1 className="text-3xl font-black tracking-tight">Delivery log</h1>
      </header>
      <EndpointsState query={endpoints} />
      {endpoints.data && !endpoint && (
        <Card role="alert" className="p-5" data-testid="webhook-endpoint-missing">
          <p className="font-semibold">No endpoint with this address.</p>
          <p className="text-sm text-muted-foreground">It may have been removed. Go back to all endpoints.</p>
        </Card>
      )}
      {endpoint && (
        <>
          <WebhookEndpointCard
            endpoint={endpoint}
            withLogLink={false}
            onAction={(action, target) => setOpen({ action, endpoint: target })}
          />
          <RedeliverFailedForm endpoint={endpoint} />
          <WebhookDeliveryLog endpointId={endpoint.id} />
        </>
      )}
      <EndpointDialogs open={open} onClose={() => setOpen(null)} />
    </div>
  );
}

/** The endpoints' loading and failure, shared by both pages. */
function EndpointsState({ query }: { query: ReturnType<typeof useWebhookEndpoints> }) {
  if (query.data) return null;
  if (query.isError) {
    return (
      <Card role="alert" className="grid justify-items-start gap-2 p-5" data-testid="webhooks-error">
        <p className="flex items-center gap-2 font-semibold">
          <TriangleAlert aria-hidden className="size-5 text-destructive" /> Could not load the endpoints
        </p>
        <p className="text-sm break-words text-muted-foreground">{adminErrorText(query.error, query.error.message)}</p>
        <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
          <RefreshCw aria-hidden className={query.isFetching ? 'motion-safe:animate-spin' : undefined} />
          Try again
        </Button>
      </Card>
    );
  }
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
      <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" /> Loading...
    </p>
  );
}
