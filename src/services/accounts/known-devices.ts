// Known devices: a browser that signed in as a user carries a signed cookie naming that user (HMAC-SHA256 with a key
// the server keeps in its database, made once), so its right password is never refused by the per-account limit that
// anyone can fill with wrong guesses — an attacker without the password cannot lock out an owner on a device they
// used before. One cookie remembers up to ACCOUNT_LIMITS.knownDeviceUsers users for ACCOUNT_LIMITS.knownDeviceLifetimeMs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import type { Store } from '../../store/index.js';
import type { ServiceContext } from '../context.js';

export interface KnownDevice {
  userId: string;
  /** Random, per browser and user: what the device's own wrong guesses are counted by. */
  deviceId: string;
  expiresAt: number;
}

const SECRET_NAME = 'known-device-key';
const ENTRY_SEPARATOR = '~';
/** Longest cookie value read: a few entries of ~110 characters; anything longer is not ours. */
const COOKIE_MAX_CHARS = 2000;

/** The browser's entries that are signed by this server, unexpired and well-formed (forged or stale ones are dropped). */
export async function readKnownDevices(ctx: ServiceContext, cookie: string | undefined): Promise<KnownDevice[]> {
  if (cookie === undefined || cookie === '' || cookie.length > COOKIE_MAX_CHARS) return [];
  const key = await deviceKey(ctx);
  const now = ctx.clock.now();
  const devices: KnownDevice[] = [];
  for (const entry of cookie.split(ENTRY_SEPARATOR).slice(0, ACCOUNT_LIMITS.knownDeviceUsers)) {
    const [userId, deviceId, expires, mac, ...rest] = entry.split('.');
    if (userId === undefined || deviceId === undefined || expires === undefined || mac === undefined || rest.length > 0)
      continue;
    const expiresAt = Number(expires);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) continue;
    const device = { userId, deviceId, expiresAt };
    if (macMatches(sign(key, device), mac)) devices.push(device);
  }
  return devices;
}

/**
 * Whether the browser is a known device of the user with this email: their entry, or null. Looks the user up only
 * when the browser holds a valid entry at all (a stranger's browser costs no query).
 */
export async function knownDeviceFor(
  ctx: ServiceContext,
  input: { cookie: string | undefined; email: string },
): Promise<KnownDevice | null> {
  const devices = await readKnownDevices(ctx, input.cookie);
  if (devices.length === 0) return null;
  const user = await ctx.store.users.findByEmail(input.email.trim().toLowerCase());
  return (user && devices.find((d) => d.userId === user.id)) ?? null;
}

/** The cookie's new value once `userId` signed in: their entry renewed (or new) first, the other users' kept after it. */
export async function rememberDevice(
  ctx: ServiceContext,
  input: { cookie: string | undefined; userId: string },
): Promise<string> {
  const key = await deviceKey(ctx);
  const known = await readKnownDevices(ctx, input.cookie);
  const own = known.find((d) => d.userId === input.userId);
  const device: KnownDevice = {
    userId: input.userId,
    deviceId: own?.deviceId ?? randomBytes(12).toString('base64url'),
    expiresAt: ctx.clock.now() + ACCOUNT_LIMITS.knownDeviceLifetimeMs,
  };
  const others = known.filter((d) => d.userId !== input.userId).slice(0, ACCOUNT_LIMITS.knownDeviceUsers - 1);
  return [device, ...others]
    .map((d) => `${d.userId}.${d.deviceId}.${d.expiresAt}.${sign(key, d)}`)
    .join(ENTRY_SEPARATOR);
}

function sign(key: Buffer, device: KnownDevice): string {
  return createHmac('sha256', key)
    .update(`known-device\n${device.userId}\n${device.deviceId}\n${device.expiresAt}`)
    .digest('base64url');
}

function macMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

// One key per database (tests open many): made by the first process that needs it, read once per store.
const keys = new WeakMap<Store, Promise<Buffer>>();

function deviceKey(ctx: ServiceContext): Promise<Buffer> {
  let key = keys.get(ctx.store);
  if (!key) {
    key = ctx.store.serverSecrets
      .getOrCreate(SECRET_NAME, () => randomBytes(32).toString('base64url'), ctx.clock.now())
      .then((value) => Buffer.from(value, 'base64url'));
    keys.set(ctx.store, key);
    // A failed read (the database away) is tried again next time.
    key.catch(() => keys.delete(ctx.store));
  }
  return key;
}
