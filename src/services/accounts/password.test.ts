// Account passwords: scrypt hashes that verify, and the same work for an account without a password (or none at all),
// so the time of an answer does not tell an unknown email from a wrong password.
import { describe, expect, it } from 'vitest';
import { hashAccountPassword, verifyAccountPassword } from './password.js';

async function medianMs(work: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
}

describe('account passwords', () => {
  it('verifies the password a hash was made of, and no other', async () => {
    const hash = await hashAccountPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyAccountPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyAccountPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await hashAccountPassword('correct horse battery staple')).not.toBe(hash);
  });

  it('refuses any password without a stored hash, after as much work as a real check', async () => {
    const hash = await hashAccountPassword('correct horse battery staple');
    await verifyAccountPassword('warm-up', null);
    const real = await medianMs(() => verifyAccountPassword('a wrong password', hash));
    const none = await medianMs(() => verifyAccountPassword('a wrong password', null));
    expect(await verifyAccountPassword('correct horse battery staple', null)).toBe(false);
    // scrypt costs tens of milliseconds; skipping it would answer in microseconds. A loaded machine (the suite's other
    // files, two cores) makes either median vary by twice or more, so the bound is a fifth: still a thousand times what
    // a skipped check takes.
    expect(real).toBeGreaterThan(5);
    expect(none).toBeGreaterThan(real / 5);
  });
});
