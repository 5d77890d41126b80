import { describe, expect, it } from 'vitest';
import { readCreateOrderAnswer } from './order-response';
import { CheckoutFailure } from './payment-failure';

const order = { id: 'o1', status: 'paid', shippingUrl: '/orders/o1/shipping', needsShipping: true };

function failureOf(status: number, body: string): CheckoutFailure {
  try {
    readCreateOrderAnswer(status, body);
  } catch (error) {
    expect(error).toBeInstanceOf(CheckoutFailure);
    expect((error as CheckoutFailure).title).toBe('Order Creation Failed');
    return error as CheckoutFailure;
  }
  throw new Error('expected a failure');
}

describe('readCreateOrderAnswer', () => {
  it('returns the order on 201 and 200 (a repeat)', () => {
    expect(readCreateOrderAnswer(201, JSON.stringify(order))).toEqual({ kind: 'order', order });
    expect(readCreateOrderAnswer(200, JSON.stringify({ ...order, shippingUrl: 'https://shop.example/invoices/x' }))).toMatchObject({
      kind: 'order',
    });
  });

  it('asks to retry on 202 awaiting-confirmations', () => {
    expect(readCreateOrderAnswer(202, JSON.stringify({ code: 'awaiting-confirmations', message: 'Waiting' }))).toEqual({ kind: 'retry' });
  });

  it("other failures: 'Server error ({status}): {body}'", () => {
    expect(
      failureOf(409, JSON.stringify({ code: 'payment-underpaid', message: 'The transfer carried less than the exact amount.' })).message,
    ).toBe('Server error (409): The transfer carried less than the exact amount.');
    expect(failureOf(500, 'Internal Server Error').message).toBe('Server error (500): Internal Server Error');
    expect(failureOf(404, '').message).toBe('Server error (404): ');
  });

  it("'Server returned invalid JSON response'", () => {
    expect(failureOf(201, '<html>').message).toBe('Server returned invalid JSON response');
    expect(failureOf(201, '').message).toBe('Server returned invalid JSON response');
  });

  it("'Server returned invalid order format' for anything but an object", () => {
    for (const body of ['null', '[]', '"ok"', '42', 'true'])
      expect(failureOf(201, body).message, body).toBe('Server returned invalid order format');
  });

  it("'Server response missing shipping URL', also for one the browser must not open", () => {
    for (const shippingUrl of [undefined, null, '', '  ', 42, 'javascript:alert(1)', '//evil.example/x', 'data:text/html,x']) {
      expect(failureOf(201, JSON.stringify({ ...order, shippingUrl })).message, String(shippingUrl)).toBe(
        'Server response missing shipping URL',
      );
    }
  });
});
