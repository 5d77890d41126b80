import { describe, expect, it } from 'vitest';
import { parseLauncherArgs } from './launcher-args';

describe('parseLauncherArgs', () => {
  it('has defaults for everything, the state folder under data/ of the working folder', () => {
    expect(parseLauncherArgs([], '/repo')).toEqual({
      port: 8443,
      host: '127.0.0.1',
      stateDir: '/repo/data/shopify-emulator',
      tokenTtlSeconds: 86399,
      demoProducts: 27,
    });
  });

  it('reads every flag, in either spelling', () => {
    expect(
      parseLauncherArgs(
        ['--port', '0', '--host=::1', '--state-dir', '/tmp/emu', '--token-ttl-seconds=2', '--demo-products', '20000'],
        '/repo',
      ),
    ).toEqual({
      port: 0,
      host: '::1',
      stateDir: '/tmp/emu',
      tokenTtlSeconds: 2,
      demoProducts: 20000,
    });
    expect(parseLauncherArgs(['--state-dir', 'state'], '/repo')).toMatchObject({ stateDir: '/repo/state' });
    expect(parseLauncherArgs(['--host', 'localhost'], '/repo')).toMatchObject({ host: 'localhost' });
    expect(parseLauncherArgs(['--help'], '/repo')).toBe('help');
  });

  it.each([
    [['--port', '65536'], /--port must be a whole number from 0 to 65535/],
    [['--port', '-1'], /--port/],
    [['--port', '80.5'], /--port/],
    [['--port', 'x'], /--port/],
    [['--token-ttl-seconds', '0'], /--token-ttl-seconds must be a whole number from 1/],
    [['--host', 'https://localhost'], /--host must be an IP address or a host name/],
    [['--host', 'localhost:8443'], /--host/],
    [['--state-dir', ' '], /--state-dir must not be empty/],
    [['--demo-products', '26'], /--demo-products must be a whole number from 27 to 50000/],
    [['--prot', '1'], /Unknown option '--prot'/],
    [['extra'], /positional argument/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseLauncherArgs(argv, '/repo')).toThrow(message);
  });
});
