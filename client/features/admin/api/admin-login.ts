import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminBrowserKnownSchema,
  adminLoginRefusalSchema,
  adminSessionSchema,
  type AdminLoginRequest,
  type AdminSession,
  type AdminSignInLinkRequest,
} from '../../../../common/admin';
import { isErrorCode } from '../../../../common/errors';
import { ApiError, apiFetch } from '../../../lib/api-client';
import type { LoginRefusal } from '../lib/login-notice';
import { adminSessionQueryKey, type AdminSessionState } from './admin-session';

/** POST /api/admin/login: the server checks the password (after its growing delay) and sets the admin cookie. */
export async function adminLogin(password: string): Promise<AdminSession> {
  const body = await apiFetch<unknown>('/api/admin/login', { method: 'POST', json: { password } satisfies AdminLoginRequest });
  return adminSessionSchema.parse(body);
}

/** POST /api/admin/login/link: the operator's one-time sign-in link makes this browser one that logged in before. */
export async function presentSignInLink(link: string): Promise<void> {
  const body = await apiFetch<unknown>('/api/admin/login/link', { method: 'POST', json: { link } satisfies AdminSignInLinkRequest });
  adminBrowserKnownSchema.parse(body);
}

/** What a failed login said: status, code and the refusal's extra fields (`attemptsRemaining`, `lockedUntil`). */
export function loginRefusalOf(error: unknown): LoginRefusal {
  if (!(error instanceof ApiError)) return { status: 0, code: null };
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(error.bodyText);
  } catch {
    // not JSON: only the status is known
  }
  const body = adminLoginRefusalSchema.safeParse(parsed);
  if (!body.success) return { status: error.status, code: error.code };
  return {
    status: error.status,
    code: isErrorCode(body.data.code) ? body.data.code : null,
    attemptsRemaining: body.data.attemptsRemaining,
    lockedUntil: body.data.lockedUntil,
    newBrowsersPaused: body.data.newBrowsersPaused,
  };
}

/** Logs in; on success the page shows 'Product Management' at once. */
export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'login'],
    mutationFn: (password: string) => adminLogin(password),
    onSuccess: (session) => {
      queryClient.setQueryData<AdminSessionState>(adminSessionQueryKey, session);
    },
  });
}
