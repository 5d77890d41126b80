import { useState } from 'react';
import { WEBHOOK_PREVIOUS_SECRET_MS, type WebhookEndpoint, type WebhookEndpointWithSecret } from '../../../../common/outgoing-webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useRotateWebhookSecret } from '../api/webhooks';
import { dateTimeText } from '../lib/webhook-text';
import { WebhookSecret } from './webhook-secret';

const GRACE_HOURS = WEBHOOK_PREVIOUS_SECRET_MS / 3_600_000;

/** 'Rotate secret': a confirmation (the old secret keeps working for a day), then the new secret, shown once. */
export function WebhookRotateDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const rotate = useRotateWebhookSecret();
  const [rotated, setRotated] = useState<WebhookEndpointWithSecret | null>(null);
  const error =
    rotate.error && !isAdminSessionLost(rotate.error) ? adminErrorText(rotate.error, 'Could not rotate the secret. Try again.') : null;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        edge="top"
        layout="form"
        width="lg"
        data-testid="webhook-rotate-dialog"
        onInteractOutside={(event) => rotated && event.preventDefault()}
      >
        {rotated ? (
          <WebhookSecret
            title="New signing secret"
            secret={rotated.secret}
            url={rotated.endpoint.url}
            note={
              rotated.endpoint.previousSecretUntil
                ? `Events are signed with both secrets until ${dateTimeText(rotated.endpoint.previousSecretUntil)}.`
                : undefined
            }
            onDone={onClose}
          />
        ) : (
          <div className="grid gap-4">
            <div className="grid gap-1 pr-10">
              <DialogTitle>Rotate secret?</DialogTitle>
              <DialogDescription className="break-all">{endpoint.url}</DialogDescription>
            </div>
            <p className="text-sm">
              The shop makes a new signing secret. The old one keeps working for {GRACE_HOURS} hours: events carry both signatures, so you
              have a day to put the new secret in your system.
            </p>
            {error && (
              <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900">
                {error}
              </p>
            )}
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={onClose} disabled={rotate.isPending}>
                Cancel
              </Button>
              <Button
                onClick={() => rotate.mutate(endpoint.id, { onSuccess: setRotated })}
                disabled={rotate.isPending}
                busy={rotate.isPending}
                data-testid="webhook-rotate-confirm"
              >
                {rotate.isPending ? 'Rotating...' : 'Rotate secret'}
              </Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
