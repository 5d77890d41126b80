import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, BellOff, BellRing } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PushSubscriptionJson } from '../../../../common/api';
import { ErrorCode } from '../../../../common/errors';
import { Button } from '../../../components/ui/button';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { isSubscribed, orderUpdatesQueryKey, removeSubscription, saveSubscription, usePushKey } from '../api/order-updates';
import { keyBytes, pushSupported, shopRegistration, subscribeWith } from '../lib/push-browser';

type UpdatesState = 'on' | 'off' | 'unavailable';

const BLOCKED = 'Notifications are blocked for this site in your browser settings';

/** Whether `subscription` was made with the shop's key `publicKey` (a new key needs a new subscription). */
function madeWith(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return false;
  const a = new Uint8Array(key);
  const b = keyBytes(publicKey);
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

const errorText = (error: unknown) =>
  error instanceof ApiError ? apiErrorText(error) : error instanceof Error ? error.message : 'Something went wrong. Try again.';

/**
 * "Turn on order updates" / "Order updates are on" with "Turn off" for the signed-in `wallet`
 * (docs/order-updates.md): shown only where the browser takes push messages and the shop sends
 * them. Permission is asked only on the tap; a refusal is explained, not asked again.
 */
export function OrderUpdatesToggle({ wallet, signedIn = true }: { wallet: string; signedIn?: boolean }) {
  const supported = pushSupported();
  const key = usePushKey(supported);
  const publicKey = key.data?.publicKey ?? null;
  const queryClient = useQueryClient();
  const stateKey = [...orderUpdatesQueryKey, 'state', wallet.toLowerCase()];
  const state = useQuery({
    queryKey: stateKey,
    enabled: publicKey !== null && signedIn,
    staleTime: Infinity,
    queryFn: async (): Promise<UpdatesState> => {
      const registration = await shopRegistration();
      if (!registration) return 'unavailable';
      const subscription = await registration.pushManager.getSubscription();
      if (!subscription || Notification.permission !== 'granted') return 'off';
      return (await isSubscribed(subscription.endpoint)) ? 'on' : 'off';
    },
  });
  const [permission, setPermission] = useState<NotificationPermission>(() => (supported ? Notification.permission : 'default'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!publicKey) return null;
  if (!signedIn)
    return (
      <p
        className="flex items-start gap-2 rounded-2xl border border-border bg-surface p-3 text-sm"
        data-testid="order-updates"
        data-state="sign-in"
      >
        <Bell aria-hidden className="mt-px size-5 shrink-0 text-brand" />
        <span>
          <Link to="/orders" className="font-semibold text-brand underline underline-offset-2">
            Sign in on Your Orders
          </Link>{' '}
          to turn on order updates.
        </span>
      </p>
    );
  if (!state.data || state.data === 'unavailable') return null;
  const on = state.data === 'on';

  const run = async (step: () => Promise<UpdatesState>) => {
    setError(null);
    setBusy(true);
    try {
      queryClient.setQueryData(stateKey, await step());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const turnOn = () =>
    run(async () => {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer !== 'granted') return 'off';
      // A subscription of this browser kept only when it was made with this key and is this wallet's.
      const keep = async (existing: PushSubscription) => madeWith(existing, publicKey) && isSubscribed(existing.endpoint);
      let subscription = await subscribeWith(publicKey, keep);
      try {
        await saveSubscription(subscription.toJSON() as PushSubscriptionJson);
      } catch (e) {
        // This browser's endpoint gets another wallet's updates: a new endpoint for this one.
        if (!(e instanceof ApiError && e.code === ErrorCode.pushSubscriptionTaken)) throw e;
        subscription = await subscribeWith(publicKey, async () => false);
        await saveSubscription(subscription.toJSON() as PushSubscriptionJson);
      }
      return 'on';
    });

  const turnOff = () =>
    run(async () => {
      const registration = await shopRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        await removeSubscription(subscription.endpoint).catch((e: unknown) => {
          if (!(e instanceof ApiError && e.code === ErrorCode.pushSubscriptionNotFound)) throw e;
        });
        await subscription.unsubscribe();
      }
      return 'off';
    });

  const blocked = permission === 'denied';
  return (
    <div
      className="grid gap-2 rounded-2xl border border-border bg-surface p-3 text-sm"
      data-testid="order-updates"
      data-state={blocked ? 'blocked' : state.data}
    >
      {blocked ? (
        <p className="flex items-start gap-2 text-muted-foreground">
          <BellOff aria-hidden className="mt-px size-5 shrink-0" />
          {BLOCKED}
        </p>
      ) : on ? (
        <p className="flex flex-wrap items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <BellRing aria-hidden className="size-5 shrink-0 text-brand" />
            Order updates are on
          </span>
          <Button variant="outline" size="sm" onClick={() => void turnOff()} disabled={busy} busy={busy} data-testid="order-updates-off">
            Turn off
          </Button>
        </p>
      ) : (
        <Button variant="outline" size="block" onClick={() => void turnOn()} disabled={busy} busy={busy} data-testid="order-updates-on">
          <Bell aria-hidden />
          Turn on order updates
        </Button>
      )}
      {error && (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
