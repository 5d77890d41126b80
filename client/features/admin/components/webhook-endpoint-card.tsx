import { KeyRound, ListChecks, Pencil, Power, PowerOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { WebhookEndpoint } from '../../../../common/outgoing-webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useUpdateWebhookEndpoint } from '../api/webhooks';
import { endpointState, type EndpointState } from '../lib/webhook-text';
import { Fact, Facts, When } from './desk-bits';

export type EndpointAction = 'edit' | 'rotate';

/** The explanation's colours (each with AA contrast): red when the shop stopped sending, amber while failing, grey when an admin turned it off. */
const EXPLANATION_TONES: Readonly<Record<EndpointState['tone'], string>> = {
  destructive: 'bg-red-50 text-red-900',
  warning: 'bg-amber-50 text-amber-950',
  secondary: 'bg-muted text-foreground',
  success: '',
};

/**
 * One endpoint: its URL and description, its state (and what a disabled one means, and how to turn
 * it back on), its events, its pending and failed deliveries, and its actions.
 */
export function WebhookEndpointCard({
  endpoint,
  onAction,
  withLogLink = true,
}: {
  endpoint: WebhookEndpoint;
  onAction: (action: EndpointAction, endpoint: WebhookEndpoint) => void;
  withLogLink?: boolean;
}) {
  const state = endpointState(endpoint);
  const update = useUpdateWebhookEndpoint();
  const setEnabled = (enabled: boolean) =>
    update.mutate(
      { id: endpoint.id, changes: { enabled } },
      {
        onSuccess: () => toast({ title: enabled ? 'Endpoint turned on' : 'Endpoint turned off' }),
        onError: (error) => {
          if (!isAdminSessionLost(error))
            toast({ title: 'Not changed', description: adminErrorText(error, 'Try again.'), variant: 'destructive' });
        },
      },
    );

  return (
    <Card className="grid gap-3 p-4 sm:p-5" data-testid="webhook-endpoint" data-endpoint-id={endpoint.id} data-state={state.kind}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 flex-1 gap-0.5">
          <h2 className="font-mono text-base font-semibold break-all" data-testid="webhook-endpoint-url">
            {endpoint.url}
          </h2>
          {endpoint.description && <p className="text-sm break-words text-muted-foreground">{endpoint.description}</p>}
        </div>
        <Badge variant={state.tone} data-testid="webhook-endpoint-state">
          {state.label}
        </Badge>
      </div>
      {state.explanation && (
        <p className={cn('rounded-xl p-3 text-sm', EXPLANATION_TONES[state.tone])} data-testid="webhook-endpoint-explanation">
          {state.explanation}
        </p>
      )}
      <ul aria-label="Events" className="flex flex-wrap gap-1.5">
        {endpoint.events.map((type) => (
          <li key={type}>
            <Badge variant="outline" className="font-mono font-semibold">
              {type}
            </Badge>
          </li>
        ))}
      </ul>
      <Facts>
        <Fact label="Pending" testId="webhook-endpoint-pending">
          <span className="tabular-nums">{endpoint.pending}</span>
        </Fact>
        <Fact label="Failed" testId="webhook-endpoint-failed">
          <span className={endpoint.failed > 0 ? 'text-red-800 tabular-nums' : 'tabular-nums'}>{endpoint.failed}</span>
        </Fact>
        <Fact label="Failing since">{endpoint.failingSince ? <When at={endpoint.failingSince} /> : '—'}</Fact>
        <Fact label="Added">
          <When at={endpoint.createdAt} />
        </Fact>
      </Facts>
      <div className="flex flex-wrap gap-2">
        {withLogLink && (
          <Link
            to={`/admin/webhooks/${encodeURIComponent(endpoint.id)}`}
            className={buttonVariants({ variant: 'default', size: 'sm' })}
            data-testid="webhook-endpoint-log"
          >
            <ListChecks aria-hidden />
            Delivery log
          </Link>
        )}
        <Button variant="outline" size="sm" onClick={() => onAction('edit', endpoint)} data-testid="webhook-endpoint-edit">
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button
          variant={endpoint.enabled ? 'outline-destructive' : 'outline'}
          size="sm"
          onClick={() => setEnabled(!endpoint.enabled)}
          disabled={update.isPending}
          busy={update.isPending}
          data-testid="webhook-endpoint-toggle"
        >
          {endpoint.enabled ? <PowerOff aria-hidden /> : <Power aria-hidden />}
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => onAction('rotate', endpoint)} data-testid="webhook-endpoint-rotate">
          <KeyRound aria-hidden />
          Rotate secret
        </Button>
      </div>
    </Card>
  );
}
