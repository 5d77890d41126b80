/**
 * A push service and a browser's push subscription, for the tests of order news: the push
 * service stand-in records every message the shop sends (answering 201, or what `answers` says for
 * a path), and the browser's side (its P-256 key pair and auth secret, which only it holds)
 * decrypts them as a browser does (RFC 8291 §3.4, RFC 8188's aes128gcm).
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's side of a subscription; `json` is what PushSubscription.toJSON() gives the shop. */
export interface PushBrowser {
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export async function startPushService() {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.get(req.url ?? '') ?? 201;
      res.end(res.statusCode >= 400 ? 'x'.repeat(5000) : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { received, answers, origin, close: () => new Promise((r) => server.close(r)) };
}

/** A new subscription at the push service `origin`. */
export function newPushBrowser(origin: string): PushBrowser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${origin}/push/${randomUUID()}`;
  return {
    endpoint,
    ecdh,
    auth,
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

/** The browser's decryption of one message (one aes128gcm record); throws on anything else. */
export function decryptPush(browser: PushBrowser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error(`not the last record's delimiter: ${padded[end]}`);
  return padded.subarray(0, end).toString('utf8');
}
