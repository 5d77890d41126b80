import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../common/errors';
import { AppError, HTTP_STATUS, toErrorAnswer } from './errors';

describe('HTTP_STATUS', () => {
  it('answers every code with a client or server error, except the 202 "ask again"', () => {
    for (const code of Object.values(ErrorCode)) {
      const status = HTTP_STATUS[code];
      if (code === ErrorCode.awaitingConfirmations) expect(status, code).toBe(202);
      else expect(status >= 400 && status <= 599, `${code}: ${status}`).toBe(true);
    }
  });
});

describe('toErrorAnswer', () => {
  it("answers an AppError with its code's status and its own code and message", () => {
    expect(toErrorAnswer(new AppError(ErrorCode.walletMismatch, 'Another wallet.'))).toEqual({
      status: 403,
      body: { code: 'wallet-mismatch', message: 'Another wallet.' },
    });
    expect(toErrorAnswer(new AppError(ErrorCode.awaitingConfirmations, 'Ask again.'))).toEqual({
      status: 202,
      body: { code: 'awaiting-confirmations', message: 'Ask again.' },
    });
  });

  it("hides a 5xx's message unless the thrower exposed it, keeping the status", () => {
    const hidden = toErrorAnswer(new AppError(ErrorCode.shopifyUnavailable, 'ECONNREFUSED 10.0.0.7:443'));
    expect(hidden.status).toBe(503);
    expect(hidden.body.code).toBe('internal-error');
    expect(hidden.body.message).not.toContain('ECONNREFUSED');
    expect(toErrorAnswer(new AppError(ErrorCode.chainUnavailable, 'Try again in a moment.', { expose: true }))).toEqual({
      status: 503,
      body: { code: 'chain-unavailable', message: 'Try again in a moment.' },
    });
  });

  it('answers anything else as a generic 500', () => {
    const answer = toErrorAnswer(new Error('relation "orders" does not exist'));
    expect(answer).toEqual({ status: 500, body: { code: 'internal-error', message: expect.any(String) } });
    expect(answer.body.message).not.toContain('orders');
  });
});
