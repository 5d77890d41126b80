import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, apiRequest, defaultErrorMessage, NETWORK_ERROR_MESSAGE } from './api-client';
import { parseErrorBody } from './error-body';

afterEach(() => vi.unstubAllGlobals());

function stubFetch(response: Response | Error) {
  const fn = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

describe('defaultErrorMessage', () => {
  it('uses the status text from 500 up', () => {
    expect(defaultErrorMessage(500, 'Internal Server Error', 'stack…')).toBe('500: Internal Server Error');
    expect(defaultErrorMessage(503, 'Service Unavailable', '')).toBe('503: Service Unavailable');
  });

  it('uses the body text below 500', () => {
    expect(defaultErrorMessage(404, 'Not Found', '{"code":"x"}')).toBe('404: {"code":"x"}');
    expect(defaultErrorMessage(400, 'Bad Request', 'bad id')).toBe('400: bad id');
  });
});

describe('parseErrorBody', () => {
  it('reads code and message from a JSON body', () => {
    expect(parseErrorBody('{"code":"product-not-found","message":"No such product"}')).toEqual({
      code: 'product-not-found',
      message: 'No such product',
    });
  });

  it('reads a code that is not ours as none, keeping the message', () => {
    expect(parseErrorBody('{"code":"no-such-code","message":"Something new"}')).toEqual({ code: null, message: 'Something new' });
  });

  it('returns nulls for other bodies', () => {
    expect(parseErrorBody('Not Found')).toEqual({ code: null, message: null });
    expect(parseErrorBody('[1]')).toEqual({ code: null, message: null });
    expect(parseErrorBody('')).toEqual({ code: null, message: null });
  });
});

describe('apiFetch', () => {
  it('sends credentials and JSON, and returns the parsed body', async () => {
    const fetchFn = stubFetch(new Response('{"ok":true}', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await expect(apiFetch('/api/x', { method: 'POST', json: { a: 1 } })).resolves.toEqual({ ok: true });
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"a":1}');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
  });

  it('throws "{status}: {body}" with the parsed code for a 4xx', async () => {
    const body = '{"code":"product-not-found","message":"No product 42"}';
    stubFetch(new Response(body, { status: 404, statusText: 'Not Found' }));
    const error = await apiFetch('/api/products/42').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`404: ${body}`);
    expect((error as ApiError).code).toBe('product-not-found');
    expect((error as ApiError).serverMessage).toBe('No product 42');
    expect((error as ApiError).status).toBe(404);
  });

  it('throws status and status text for a 5xx', async () => {
    stubFetch(new Response('boom', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiFetch('/api/products')).rejects.toThrow('502: Bad Gateway');
  });

  it('turns a network failure into a status-0 ApiError', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await apiFetch('/api/products').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).message).toBe(NETWORK_ERROR_MESSAGE);
  });
});

describe('apiRequest', () => {
  it('answers a refusal as it is, through the fetch it was given', async () => {
    const send = vi.fn(async () => new Response('{"code":"rate-limited","message":"Slow down"}', { status: 429 }));
    const response = await apiRequest('/api/orders/create', { method: 'POST', json: { a: 1 }, fetch: send as unknown as typeof fetch });
    expect(response.status).toBe(429);
    const [url, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/orders/create');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect(new Headers(init.headers).get('Accept')).toBe('application/json');
  });
});
