import { RotateCw } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { WebhookEndpoint } from '../../../../common/outgoing-webhooks';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useRedeliverFailed } from '../api/webhooks';
import { defaultRedeliverSince, localInputToIso, redeliveredText } from '../lib/webhook-text';

/** 'Redeliver failed since…': every delivery given up since a time (the admin's own clock) queued again; the answer says how many. */
export function RedeliverFailedForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [since, setSince] = useState(() => defaultRedeliverSince(endpoint));
  const [result, setResult] = useState<{ text: string; failed: boolean } | null>(null);
  const redeliver = useRedeliverFailed();
  const iso = localInputToIso(since);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!iso || redeliver.isPending) {
      if (!iso) setResult({ text: 'Enter a date and time.', failed: true });
      return;
    }
    setResult(null);
    redeliver.mutate(
      { id: endpoint.id, since: iso },
      {
        onSuccess: ({ queued }) => setResult({ text: redeliveredText(queued), failed: false }),
        onError: (error) => {
          if (!isAdminSessionLost(error)) setResult({ text: adminErrorText(error, 'Could not queue them. Try again.'), failed: true });
        },
      },
    );
  };

  return (
    <Card className="p-4 sm:p-5">
      <form className="grid gap-2" onSubmit={submit} data-testid="webhook-redeliver-failed">
        <label htmlFor="webhook-redeliver-since" className="text-sm font-semibold">
          Redeliver failed deliveries since
        </label>
        <div className="flex flex-wrap gap-2">
          <div className="min-w-56 flex-1 sm:max-w-64">
            <Input
              id="webhook-redeliver-since"
              type="datetime-local"
              value={since}
              onChange={(e) => setSince(e.target.value)}
              aria-describedby="webhook-redeliver-failed-result"
              data-testid="webhook-redeliver-since"
            />
          </div>
          <Button
            type="submit"
            variant="outline"
            disabled={redeliver.isPending}
            busy={redeliver.isPending}
            data-testid="webhook-redeliver-failed-submit"
          >
            <RotateCw aria-hidden />
            Redeliver failed
          </Button>
        </div>
        <p
          id="webhook-redeliver-failed-result"
          role="status"
          aria-live="polite"
          className={result?.failed ? 'text-sm text-red-800' : 'text-sm'}
          data-testid="webhook-redeliver-failed-result"
        >
          {result?.text ?? ''}
        </p>
      </form>
    </Card>
  );
}
