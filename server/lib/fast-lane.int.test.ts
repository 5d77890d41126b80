// Lanes ahead of the app: what a lane takes it answers, what it leaves (at once or later) goes on
// to the next lane and then the app, and a lane that fails leaves the request to the app.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRaw as raw } from '../test/raw-http';
import { FastLaneApp, type Lane } from './fast-lane';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An app whose own answer names it, with `lanes` ahead; the errors it reports. */
async function appWith(lanes: Lane[]): Promise<{ url: string; errors: unknown[] }> {
  const app = new FastLaneApp();
  const errors: unknown[] = [];
  app.on('error', (err: unknown) => void errors.push(err));
  for (const lane of lanes) app.addLane(lane);
  app.use((ctx) => {
    ctx.body = 'app';
  });
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors };
}

/** A lane that answers `name` for paths starting with `prefix`, at once or after a read (`later`). */
const answering =
  (name: string, prefix: string, later = false): Lane =>
  (req, res) => {
    const take = () => {
      if (!req.url?.startsWith(prefix)) return false;
      res.writeHead(200, { 'content-type': 'text/plain' }).end(name);
      return true;
    };
    return later ? new Promise<boolean>((resolve) => setTimeout(() => resolve(take()), 5)) : take();
  };

const bodyAt = async (url: string) => (await raw(url, {})).body.toString();

describe('lanes ahead of the app', () => {
  it('answer what they take, at once or later; what a lane leaves goes on to the next lane, then the app', async () => {
    const { url, errors } = await appWith([answering('later', '/a', true), answering('at once', '/b'), answering('later too', '/c', true)]);
    expect(await bodyAt(`${url}/a`)).toBe('later');
    expect(await bodyAt(`${url}/b`)).toBe('at once');
    expect(await bodyAt(`${url}/c`)).toBe('later too');
    expect(await bodyAt(`${url}/d`)).toBe('app');
    expect(errors).toEqual([]);
  });

  it('leave the request to the app when a lane fails, at once or later, and report the error as the app reports its own', async () => {
    const { url, errors } = await appWith([
      (req) => {
        if (req.url === '/now') throw new Error('lane broke');
        return false;
      },
      (req) => (req.url === '/later' ? Promise.reject(new Error('lane broke later')) : false),
    ]);
    expect(await bodyAt(`${url}/now`)).toBe('app');
    expect(await bodyAt(`${url}/later`)).toBe('app');
    expect(errors).toEqual([expect.objectContaining({ message: 'lane broke' }), expect.objectContaining({ message: 'lane broke later' })]);
  });
});
