import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../common/errors';
import { ApiError } from '../../../lib/api-client';
import { loginRefusalOf } from './admin-login';

const refused = (status: number, body: unknown) =>
  new ApiError(status, `${status}: …`, { bodyText: typeof body === 'string' ? body : JSON.stringify(body) });

describe('loginRefusalOf', () => {
  it("reads the wrong password's attempts and the lock's end off the error body", () => {
    expect(loginRefusalOf(refused(401, { code: 'admin-invalid-password', message: 'Invalid password', attemptsRemaining: 3 }))).toEqual({
      status: 401,
      code: ErrorCode.adminInvalidPassword,
      attemptsRemaining: 3,
      lockedUntil: undefined,
    });
    const lockedUntil = '2025-01-01T12:15:00.000Z';
    expect(loginRefusalOf(refused(429, { code: 'admin-locked', message: 'Locked', lockedUntil }))).toMatchObject({
      code: ErrorCode.adminLocked,
      lockedUntil,
    });
  });

  it('keeps only the status for a body that is not a refusal, and nothing for other failures', () => {
    expect(loginRefusalOf(refused(502, '<html>Bad gateway</html>'))).toEqual({ status: 502, code: null });
    expect(loginRefusalOf(refused(401, { code: 'something-new', message: 'x' }))).toMatchObject({ status: 401, code: null });
    expect(loginRefusalOf(new TypeError('Failed to fetch'))).toEqual({ status: 0, code: null });
  });
});
