// Account passwords: scrypt (domain/passwords.ts) on libuv's thread pool, never on the event loop. Checking a password
// of an unknown email (or of a user without one) still costs one scrypt, so the answer's timing does not tell them apart.
import { hashPassword, verifyPassword } from '../../domain/passwords.js';

export function hashAccountPassword(password: string): Promise<string> {
  return hashPassword(password);
}

/** Whether `password` matches `stored`; with no stored hash, false after the same work. */
export async function verifyAccountPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored !== null) return verifyPassword(password, stored);
  await verifyPassword(password, await dummyHash());
  return false;
}

// A hash of nothing anyone knows, made once per process with the same parameters as real ones (so it costs the same).
let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(`dummy ${Math.random()}`);
  return dummy;
}
