import { useEffect, useState } from 'react';

/**
 * While the server verifies a password (it waits 1 s plus 1 s per previous failure, up to 5 s,
 * by design) the wait shows as a filling bar, so a longer wait reads as expected, not as a hang.
 */
export function LoginProgress({ durationMs }: { durationMs: number }) {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const started = performance.now();
    const timer = setInterval(() => setElapsed(Math.min(performance.now() - started, durationMs)), 100);
    return () => clearInterval(timer);
  }, [durationMs]);
  const percent = Math.round((elapsed / durationMs) * 100);
  return (
    <div className="grid gap-1.5" data-testid="admin-login-progress" data-duration-ms={durationMs}>
      <div
        role="progressbar"
        aria-label="Verifying password"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-brand transition-[width] duration-100 ease-linear" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-muted-foreground">
        Verifying password… this takes about {Math.round(durationMs / 1000)} s{durationMs > 1000 ? ' after failed attempts' : ''}.
      </p>
    </div>
  );
}
