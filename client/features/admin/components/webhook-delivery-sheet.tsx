import { LoaderCircle, RotateCw } from 'lucide-react';
import { useState } from 'react';
import type { WebhookDelivery } from '../../../../common/outgoing-webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useDeliveryDetail, useRedeliver } from '../api/webhooks';
import { attemptsText, dateTimeText, deliveryStatusLabel, deliveryStatusTone, prettyPayload, responseText } from '../lib/webhook-text';
import { Copyable, Fact, Facts, When } from './desk-bits';

/** One delivery: its facts, the payload as the endpoint receives it, its latest attempts, and 'Redeliver'. */
export function WebhookDeliverySheet({ delivery, onClose }: { delivery: WebhookDelivery; onClose: () => void }) {
  const detail = useDeliveryDetail(delivery.id);
  const redeliver = useRedeliver();
  const [result, setResult] = useState('');
  const shown = detail.data?.delivery ?? delivery;
  const payload = prettyPayload(detail.data?.payload ?? null);

  const send = () => {
    setResult('');
    redeliver.mutate(delivery.id, {
      onSuccess: () => setResult('Queued: the same event, with the same id, is sent again.'),
      onError: (error) => {
        if (!isAdminSessionLost(error)) setResult(adminErrorText(error, 'Could not redeliver it. Try again.'));
      },
    });
  };

  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="overflow-y-auto overscroll-contain" data-testid="webhook-delivery-sheet">
        <div className="grid gap-1 p-5 pr-16">
          <SheetTitle className="font-mono break-all">{shown.eventType}</SheetTitle>
          <SheetDescription>Created {dateTimeText(shown.createdAt)}</SheetDescription>
        </div>
        <div className="grid gap-5 px-5 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
          <Facts>
            <Fact label="Status">
              <Badge variant={deliveryStatusTone(shown.status)} data-testid="webhook-delivery-sheet-status">
                {deliveryStatusLabel(shown.status)}
              </Badge>
            </Fact>
            <Fact label="Event id">
              <Copyable value={shown.eventId} what="event id" testId="webhook-delivery-sheet-event-id" />
            </Fact>
            <Fact label="Attempts">{attemptsText(shown.attempts)}</Fact>
            <Fact label="Last answer">{shown.lastAttemptAt ? responseText(shown.lastResponseStatus) : '—'}</Fact>
            {shown.lastError && <Fact label="Last error">{shown.lastError}</Fact>}
            {shown.nextAttemptAt && (
              <Fact label="Next attempt">
                <time dateTime={shown.nextAttemptAt}>{dateTimeText(shown.nextAttemptAt)}</time>
              </Fact>
            )}
            {shown.deliveredAt && (
              <Fact label="Delivered">
                <When at={shown.deliveredAt} />
              </Fact>
            )}
          </Facts>

          <div className="grid gap-2">
            <Button
              onClick={send}
              disabled={redeliver.isPending}
              busy={redeliver.isPending}
              className="justify-self-start"
              data-testid="webhook-redeliver"
            >
              <RotateCw aria-hidden className={redeliver.isPending ? 'motion-safe:animate-spin' : undefined} />
              Redeliver
            </Button>
            <p role="status" aria-live="polite" className="text-sm" data-testid="webhook-redeliver-result">
              {result}
            </p>
          </div>

          {detail.isPending && (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" /> Loading...
            </p>
          )}
          {detail.isError && (
            <div role="alert" className="grid gap-2">
              <p className="font-semibold">Could not load the delivery</p>
              <p className="text-sm break-words text-muted-foreground">{adminErrorText(detail.error, detail.error.message)}</p>
              <Button variant="outline" className="justify-self-start" onClick={() => void detail.refetch()}>
                Try again
              </Button>
            </div>
          )}
          {detail.data && (
            <>
              <section className="grid gap-2" aria-labelledby="webhook-payload-heading">
                <h3 id="webhook-payload-heading" className="font-bold">
                  Payload
                </h3>
                {payload === null ? (
                  <p className="text-sm text-muted-foreground">Not sent yet.</p>
                ) : (
                  <pre
                    aria-labelledby="webhook-payload-heading"
                    className="max-h-80 overflow-auto rounded-xl bg-muted p-3 font-mono text-xs leading-relaxed"
                    data-testid="webhook-payload"
                  >
                    {payload}
                  </pre>
                )}
              </section>
              <section className="grid gap-2" aria-labelledby="webhook-attempts-heading">
                <h3 id="webhook-attempts-heading" className="font-bold">
                  Attempts
                </h3>
                {detail.data.attempts.length === 0 ? (
                  <p className="text-sm text-muted-foreground">None yet.</p>
                ) : (
                  <ol className="grid gap-2" data-testid="webhook-attempts">
                    {detail.data.attempts.map((attempt, i) => (
                      <li
                        key={`${attempt.at}-${i}`}
                        className="grid gap-0.5 rounded-xl border border-border p-3 text-sm"
                        data-testid="webhook-attempt"
                      >
                        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                          <span className="font-semibold">{responseText(attempt.responseStatus)}</span>
                          <span className="text-xs text-muted-foreground">
                            {dateTimeText(attempt.at)} · {attempt.durationMs} ms
                          </span>
                        </div>
                        {attempt.error && <span className="break-words text-muted-foreground">{attempt.error}</span>}
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            </>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
