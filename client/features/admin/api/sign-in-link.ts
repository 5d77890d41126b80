import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_SIGN_IN_FRAGMENT } from '../../../../common/admin';
import { ApiError } from '../../../lib/api-client';
import { BROWSER_RECOGNISED_NOTICE, LOGIN_ERROR_NOTICE, signInLinkRefusedNotice, type LoginNotice } from '../lib/login-notice';
import { presentSignInLink } from './admin-login';

/** The operator's sign-in link in a fragment (`#sign-in=<link>`), or null. */
export function signInLinkOf(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const link = params.get(ADMIN_SIGN_IN_FRAGMENT);
  return link ? link : null;
}

/**
 * Presents the operator's sign-in link of the address once: the fragment leaves the address at
 * once (it works once, and should not stay in the history or a screenshot), and `show` gets the
 * server's answer as the form's notice. True while the server is asked.
 */
export function useSignInLink(show: (notice: LoginNotice) => void): boolean {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  const taken = useRef(false);
  const present = useMutation({ mutationKey: ['admin', 'sign-in-link'], mutationFn: presentSignInLink });
  const { mutate } = present;
  const link = signInLinkOf(hash);

  useEffect(() => {
    // Once per page, whatever React's development mode replays.
    if (!link || taken.current) return;
    taken.current = true;
    navigate({ pathname, search, hash: '' }, { replace: true });
    mutate(link, {
      onSuccess: () => show(BROWSER_RECOGNISED_NOTICE),
      onError: (error) =>
        show(error instanceof ApiError && error.serverMessage ? signInLinkRefusedNotice(error.serverMessage) : LOGIN_ERROR_NOTICE),
    });
  }, [link, mutate, navigate, pathname, search, show]);

  return present.isPending;
}
