// SCRAM's client side against the published exchanges of RFC 5802 (SHA-1) and RFC 7677 (SHA-256), and the server
// messages it must refuse.
import { describe, expect, it } from 'vitest';
import { scramFinal, scramStart } from './scram.js';

describe('scram', () => {
  it('makes the proof of RFC 5802 and checks its server signature', async () => {
    const start = scramStart('sha1', 'user', 'fyko+d2lbbFgONRv9qkxdawL');
    expect(start.clientFirst).toBe('n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL');
    const final = await scramFinal(
      start.state,
      'pencil',
      'r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096',
    );
    expect(final.clientFinal).toBe(
      'c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=',
    );
    expect(final.verifies('v=rmF9pqV8S7suAoZWja4dJRkFsKQ=')).toBe(true);
    expect(final.verifies('v=rmF9pqV8S7suAoZWja4dJRkFsKA=')).toBe(false);
    expect(final.verifies('e=other-error')).toBe(false);
  });

  it('makes the proof of RFC 7677 and checks its server signature', async () => {
    const start = scramStart('sha256', 'user', 'rOprNGfwEbeRWgbNEkqO');
    const final = await scramFinal(
      start.state,
      'pencil',
      'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
    );
    expect(final.clientFinal).toBe(
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
    );
    expect(final.verifies('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')).toBe(true);
    // The second time the same user logs in, the salted password is the one kept: the same proof.
    const again = await scramFinal(
      start.state,
      'pencil',
      'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
    );
    expect(again.clientFinal).toBe(final.clientFinal);
  });

  it('escapes = and , in the user name', () => {
    expect(scramStart('sha256', 'a=b,c', 'nonce').clientFirst).toBe('n,,n=a=3Db=2Cc,r=nonce');
  });

  it('refuses a server message that would weaken or replay the login', async () => {
    const { state } = scramStart('sha256', 'user', 'abc');
    const final = (serverFirst: string) => scramFinal(state, 'pencil', serverFirst);
    await expect(final('r=xyzdef,s=QSXCR+Q6sek8bf92,i=4096')).rejects.toThrow(
      "the server's nonce does not extend ours",
    );
    await expect(final('r=abc,s=QSXCR+Q6sek8bf92,i=4096')).rejects.toThrow("the server's nonce does not extend ours");
    await expect(final('r=abcdef,s=QSXCR+Q6sek8bf92,i=1000')).rejects.toThrow(
      'the server asked for 1000 iterations (4096 to 100000 accepted)',
    );
    await expect(final('r=abcdef,s=QSXCR+Q6sek8bf92,i=500000')).rejects.toThrow('500000 iterations');
    await expect(final('r=abcdef,i=4096')).rejects.toThrow('the server sent no salt');
    await expect(final('e=unknown-user')).rejects.toThrow('the server refused the login: unknown-user');
  });
});
