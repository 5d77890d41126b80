import { useState, type FormEvent, type ReactNode } from 'react';
import {
  createWebhookEndpointSchema,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../../common/outgoing-webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from '../api/webhooks';
import { errorsByField, orderedEvents, WEBHOOK_EVENT_CHOICES, type EndpointField } from '../lib/webhook-text';
import { WebhookSecret } from './webhook-secret';

/**
 * 'Add endpoint' (then its signing secret, shown once) or 'Edit endpoint': the URL, a description
 * and the events. The contract's own schema checks the form first; what the server refuses still
 * shows at the field it is about.
 */
export function WebhookEndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        edge="top"
        layout="form"
        width="lg"
        data-testid="webhook-endpoint-dialog"
        // Once the secret shows, a tap outside must not lose it: only Done or Close end it.
        onInteractOutside={(event) => created && event.preventDefault()}
      >
        {created ? (
          <WebhookSecret title="Endpoint added" secret={created.secret} url={created.endpoint.url} onDone={onClose} />
        ) : (
          <EndpointForm endpoint={endpoint} onCreated={setCreated} onDone={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function EndpointForm({
  endpoint,
  onCreated,
  onDone,
}: {
  endpoint: WebhookEndpoint | null;
  onCreated: (answer: WebhookEndpointWithSecret) => void;
  onDone: () => void;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<Set<string>>(() => new Set(endpoint?.events ?? []));
  const [problems, setProblems] = useState<Partial<Record<EndpointField, string>>>({});
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const busy = create.isPending || update.isPending;

  // A field's problem goes once the field is changed; the form's, at the next try.
  const changed = (field: EndpointField) =>
    setProblems((current) => {
      if (!current[field]) return current;
      const { [field]: _gone, ...rest } = current;
      return rest;
    });

  const refused = (error: unknown) => {
    if (isAdminSessionLost(error)) return;
    setProblems(errorsByField(adminErrorText(error, 'Could not save the endpoint. Try again.')));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const request = { url, description, events: orderedEvents(events) };
    const checked = createWebhookEndpointSchema.safeParse(request);
    if (!checked.success) {
      const found: Partial<Record<EndpointField, string>> = {};
      for (const issue of checked.error.issues) {
        const field = (['url', 'description', 'events'] as const).find((f) => f === issue.path[0]) ?? 'form';
        found[field] ??= issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
      }
      setProblems(found);
      return;
    }
    setProblems({});
    if (endpoint) {
      update.mutate(
        { id: endpoint.id, changes: checked.data },
        {
          onSuccess: () => {
            toast({ title: 'Endpoint saved' });
            onDone();
          },
          onError: refused,
        },
      );
    } else {
      create.mutate(checked.data, { onSuccess: onCreated, onError: refused });
    }
  };

  const toggle = (type: string, on: boolean) => {
    changed('events');
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <div className="grid gap-1 pr-10">
        <DialogTitle>{endpoint ? 'Edit endpoint' : 'Add endpoint'}</DialogTitle>
        <DialogDescription>The shop sends the chosen events to this URL, signed.</DialogDescription>
      </div>
      <Field id="webhook-url" label="URL" problem={problems.url}>
        <Input
          id="webhook-url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks"
          value={url}
          maxLength={WEBHOOK_URL_MAX}
          onChange={(e) => {
            setUrl(e.target.value);
            changed('url');
          }}
          aria-invalid={problems.url ? true : undefined}
          aria-describedby={problems.url ? 'webhook-url-problem' : undefined}
          data-testid="webhook-url"
        />
      </Field>
      <Field id="webhook-description" label="Description (optional)" problem={problems.description}>
        <Input
          id="webhook-description"
          placeholder="e.g. Accounting system"
          value={description}
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          onChange={(e) => {
            setDescription(e.target.value);
            changed('description');
          }}
          aria-invalid={problems.description ? true : undefined}
          aria-describedby={problems.description ? 'webhook-description-problem' : undefined}
          data-testid="webhook-description"
        />
      </Field>
      <fieldset
        className="grid gap-1"
        aria-invalid={problems.events ? true : undefined}
        aria-describedby={problems.events ? 'webhook-events-problem' : undefined}
        data-testid="webhook-events"
      >
        <legend className="mb-1 text-sm font-semibold">Events</legend>
        {WEBHOOK_EVENT_CHOICES.map(({ type, meaning }) => (
          <label
            key={type}
            className="grid min-h-11 cursor-pointer grid-cols-[auto_minmax(0,1fr)] gap-x-3 rounded-xl px-1 py-1.5 hover:bg-muted"
          >
            <input
              type="checkbox"
              className="row-span-2 mt-0.5 size-5 accent-brand"
              checked={events.has(type)}
              onChange={(e) => toggle(type, e.target.checked)}
              data-testid={`webhook-event-${type}`}
            />
            <span className="font-mono text-sm font-semibold break-all">{type}</span>
            <span className="text-sm text-muted-foreground">{meaning}</span>
          </label>
        ))}
        {problems.events && <Problem id="webhook-events-problem">{problems.events}</Problem>}
      </fieldset>
      {problems.form && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="webhook-form-error">
          {problems.form}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy} busy={busy} data-testid="webhook-save">
          {busy ? 'Saving...' : endpoint ? 'Save' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}

function Field({ id, label, problem, children }: { id: string; label: string; problem: string | undefined; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <label className="text-sm font-semibold" htmlFor={id}>
        {label}
      </label>
      {children}
      {problem && <Problem id={`${id}-problem`}>{problem}</Problem>}
    </div>
  );
}

function Problem({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="text-sm font-semibold text-red-800" data-testid={id}>
      {children}
    </p>
  );
}
