import { CircleCheck, LoaderCircle, Lock, TriangleAlert } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorCode } from '../../../../common/errors';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { loginRefusalOf, useAdminLogin } from '../api/admin-login';
import { useSignInLink } from '../api/sign-in-link';
import { expectedLoginDelayMs, isLockActive, loginNoticeFor, type LoginNotice } from '../lib/login-notice';
import { LoginProgress } from './login-progress';

/**
 * 'Admin Access': the password goes to the server, which answers after its delay.
 * The notice says what the last answer meant; a lock keeps the form disabled until it ends.
 */
export function AdminAccess({ initialNotice }: { initialNotice: LoginNotice | null }) {
  const login = useAdminLogin();
  const [password, setPassword] = useState('');
  const [notice, setNotice] = useState<LoginNotice | null>(initialNotice);
  // The operator's sign-in link in the address, if any: presented once, its answer shown as the notice.
  const linkPending = useSignInLink(setNotice);
  const [failuresSeen, setFailuresSeen] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const locked = isLockActive(notice, now);

  // When the lock ends the form opens again (the notice shows until `lockedUntil`).
  const lockEnd = notice?.until;
  useEffect(() => {
    if (lockEnd === undefined) return;
    const wait = lockEnd - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => {
      setNow(Date.now());
      setNotice(null);
    }, wait);
    return () => clearTimeout(timer);
  }, [lockEnd]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || login.isPending || locked) return;
    login.mutate(password, {
      onError: (error) => {
        const refusal = loginRefusalOf(error);
        const at = Date.now();
        setNow(at);
        setNotice((previous) => loginNoticeFor(refusal, previous, at));
        if (refusal.code === ErrorCode.adminInvalidPassword) setFailuresSeen((n) => n + 1);
        setPassword('');
      },
    });
  };

  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-surface px-4 py-10 sm:items-center">
      <Card className="grid w-full max-w-md gap-5 p-6 sm:p-8" data-testid="admin-access">
        <header className="grid justify-items-center gap-2 text-center">
          <span className="flex size-14 items-center justify-center rounded-full bg-brand-soft text-brand [&_svg]:size-7">
            <Lock aria-hidden />
          </span>
          <h1 className="text-2xl font-black tracking-tight">Admin Access</h1>
          <p className="text-sm text-muted-foreground">Enter the admin password to manage products.</p>
        </header>

        {linkPending && (
          <p
            role="status"
            className="flex items-center justify-center gap-2 text-sm text-muted-foreground"
            data-testid="sign-in-link-pending"
          >
            <LoaderCircle aria-hidden className="size-4 motion-safe:animate-spin" />
            Checking the sign-in link...
          </p>
        )}
        {notice && <LoginNoticeBox notice={notice} />}

        <form className="grid gap-4" onSubmit={submit} noValidate>
          <label className="grid gap-1.5 text-sm font-semibold" htmlFor="admin-password">
            Password
            <Input
              id="admin-password"
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={login.isPending || locked}
              data-testid="admin-password"
            />
          </label>
          {login.isPending && <LoginProgress durationMs={expectedLoginDelayMs(failuresSeen, notice)} />}
          <Button type="submit" size="lg" disabled={!password || login.isPending || locked} data-testid="admin-login">
            {login.isPending && <LoaderCircle aria-hidden className="motion-safe:animate-spin" />}
            {login.isPending ? 'Verifying...' : 'Log In'}
          </Button>
        </form>
      </Card>
    </div>
  );
}

function LoginNoticeBox({ notice }: { notice: LoginNotice }) {
  const good = notice.kind === 'browser-recognised';
  const serious = !good && notice.kind !== 'session-expired';
  const Icon = good ? CircleCheck : TriangleAlert;
  return (
    <div
      role={good ? 'status' : 'alert'}
      data-testid="admin-login-notice"
      data-kind={notice.kind}
      className={cn(
        'flex items-start gap-3 rounded-2xl border p-3 text-sm',
        good && 'border-green-300 bg-green-50 text-green-950',
        serious && 'border-destructive/40 bg-red-50 text-red-900',
        !good && !serious && 'border-yellow-300 bg-yellow-50 text-yellow-950',
      )}
    >
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <p>
        <span className="font-bold">{notice.title}</span>
        {notice.description && <> — {notice.description}</>}
      </p>
    </div>
  );
}
