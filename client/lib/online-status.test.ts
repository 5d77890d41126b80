import { describe, expect, it } from 'vitest';
import { connectionNeededText, connectionOf, onlineReducer, probeDelayMs, type OnlineState } from './online-status';

const online: OnlineState = { browserOnline: true, unreachable: false };

describe('onlineReducer and connectionOf', () => {
  it('follows the browser offline and back', () => {
    const offline = onlineReducer(online, { type: 'browser-offline' });
    expect(connectionOf(offline)).toBe('offline');
    expect(connectionOf(onlineReducer(offline, { type: 'browser-online' }))).toBe('online');
  });

  it('a request without an answer makes the shop unreachable until one is answered', () => {
    const failed = onlineReducer(online, { type: 'request-failed' });
    expect(connectionOf(failed)).toBe('unreachable');
    expect(connectionOf(onlineReducer(failed, { type: 'request-answered' }))).toBe('online');
  });

  it('offline wins over unreachable, and coming back online forgets the old failure', () => {
    const both = onlineReducer(onlineReducer(online, { type: 'request-failed' }), { type: 'browser-offline' });
    expect(connectionOf(both)).toBe('offline');
    expect(connectionOf(onlineReducer(both, { type: 'browser-online' }))).toBe('online');
  });

  it('an answer while the browser is offline does not claim it is online', () => {
    const offline = onlineReducer(online, { type: 'browser-offline' });
    expect(connectionOf(onlineReducer(offline, { type: 'request-answered' }))).toBe('offline');
  });

  it('answers the same state when nothing changes (no re-render)', () => {
    expect(onlineReducer(online, { type: 'request-answered' })).toBe(online);
    const failed = onlineReducer(online, { type: 'request-failed' });
    expect(onlineReducer(failed, { type: 'request-failed' })).toBe(failed);
  });
});

describe('probeDelayMs', () => {
  it('doubles from 2 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(probeDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});

describe('connectionNeededText', () => {
  it('says what needs the connection', () => {
    expect(connectionNeededText('pay')).toBe("You're offline. Connect to the internet to pay.");
  });
});
