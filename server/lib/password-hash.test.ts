import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_PARAMS, hashPassword, parsePasswordHash, verifyPassword } from './password-hash';

// A cheap cost keeps the tests quick; the format carries it, so verification uses it too.
const CHEAP = { N: 1024, r: 8, p: 1 };

describe('admin password hash', () => {
  it('writes a self-describing scrypt line that verifies the password and nothing else', async () => {
    const line = await hashPassword('correct horse battery staple', CHEAP);
    expect(line).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse battery staple', line)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', line)).toBe(false);
    expect(await verifyPassword('', line)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same', CHEAP), hashPassword('same', CHEAP)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('reads the cost from the line, so a stronger default still verifies older hashes', async () => {
    const line = await hashPassword('pw', { N: 2048, r: 4, p: 2 });
    expect(parsePasswordHash(line)).toMatchObject({ N: 2048, r: 4, p: 2 });
    expect(await verifyPassword('pw', line)).toBe(true);
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
  });

  it('treats the same text in either Unicode form as one password', async () => {
    const line = await hashPassword('caf\u00e9', CHEAP);
    expect(await verifyPassword('cafe\u0301', line)).toBe(true);
  });

  it('says what is wrong with a line that is not a hash', async () => {
    expect(parsePasswordHash('hunter2')).toMatch(/npm run admin:hash/);
    const good = await hashPassword('x', CHEAP);
    expect(parsePasswordHash(good.replace('$1024$', '$1000$'))).toMatch(/power of two/);
    expect(parsePasswordHash(good.replace('$1024$', '$512$'))).toMatch(/power of two/);
    expect(parsePasswordHash(good.replace('$8$1$', '$99$1$'))).toMatch(/r must be/);
    const [, , , , salt] = good.split('$');
    expect(parsePasswordHash(good.replace(salt!, 'AAAAAAAAAAAA'))).toMatch(/npm run admin:hash/);
    await expect(verifyPassword('x', 'scrypt$nope')).rejects.toThrow(/ADMIN_PASSWORD_HASH/);
  });
});
