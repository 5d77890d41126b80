import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse } from '../../../lib/api-client';
import { adminErrorText } from './admin-errors';

const FALLBACK = 'An error occurred. Please try again.';

/** The ApiError the admin's calls throw for this answer (lib/api-client.ts reads it). */
const refused = (status: number, body: string, contentType: string) =>
  errorFromResponse(new Response(body, { status, headers: { 'content-type': contentType } }));

describe('adminErrorText', () => {
  it.each([
    [
      'the message of a { code, message } answer',
      409,
      '{"code":"conflict","message":"Title already in use"}',
      'application/json',
      'Title already in use',
    ],
    ['a plain-text body', 400, 'Custom title is too long', 'text/plain', 'Custom title is too long'],
    [
      'a plain-text body from a proxy, trimmed',
      502,
      '  Bad gateway: upstream timed out \n',
      'text/plain',
      'Bad gateway: upstream timed out',
    ],
    ['not JSON without a message', 400, '{"code":"bad-request"}', 'application/json', FALLBACK],
    ['not an HTML error page', 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html', FALLBACK],
    ['not an empty body', 500, '', 'text/plain', FALLBACK],
    ['not a JSON string or number', 500, '"oops"', 'application/json', FALLBACK],
  ])('shows %s', async (_what, status, body, contentType, expected) => {
    expect(adminErrorText(await refused(status, body, contentType), FALLBACK)).toBe(expected);
  });

  it('falls back for what is not an answer of the server', () => {
    expect(adminErrorText(new Error('Custom title is too long'), FALLBACK)).toBe(FALLBACK);
    expect(adminErrorText(new ApiError(0, 'Network error: check your connection and try again.'), FALLBACK)).toBe(FALLBACK);
  });
});
