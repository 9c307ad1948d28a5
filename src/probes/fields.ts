// Config fields shared by several monitor types, with the messages users see when they are wrong.
import { z } from 'zod';

const PORT_MESSAGE = 'expected an integer from 1 to 65535';
const HOST_MESSAGE = 'expected a host name or an IP address';
const HOST_SHAPE = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?)+$|^[0-9A-Fa-f:.]+$|^\[[0-9A-Fa-f:.]+\]$/;

export function port() {
  return z
    .number({ error: PORT_MESSAGE })
    .int({ error: PORT_MESSAGE })
    .min(1, { error: PORT_MESSAGE })
    .max(65535, { error: PORT_MESSAGE });
}

export function host() {
  return z
    .string({ error: HOST_MESSAGE })
    .trim()
    .min(1, { error: HOST_MESSAGE })
    .max(253, { error: 'expected at most 253 characters' })
    .regex(HOST_SHAPE, { error: HOST_MESSAGE })
    .describe('Host name or IP address of the server.');
}

export function minPlayers() {
  return z
    .number()
    .int({ error: 'expected a whole number of players' })
    .min(0, { error: 'expected 0 or more' })
    .max(1_000_000)
    .optional()
    .describe('Show the monitor as degraded when fewer players than this are online.');
}

/** Whether a check also lists who is online; some types pay an extra request for it, so it is asked for. */
export function playerNames(extra = 'one more request per check') {
  return z
    .boolean()
    .default(false)
    .describe(
      `Also keep the names of the players online (at most 100) on the latest result, for pages that show them (${extra}).`,
    );
}

const DAYS_MESSAGE = 'expected a whole number of days from 0 to 365';

/** How many days before its certificate expires a monitor shows as degraded (http and tls monitors). */
export function certExpiryDays() {
  return z
    .number({ error: DAYS_MESSAGE })
    .int({ error: DAYS_MESSAGE })
    .min(0, { error: DAYS_MESSAGE })
    .max(365, { error: DAYS_MESSAGE })
    .default(14)
    .describe('Show the monitor as degraded when the certificate expires in fewer days than this; 0 never warns.');
}

/** Where a game server answers and how many players it should have; the port defaults to the game's usual one. */
export function gameServer(defaultPort: number, portNote?: string) {
  const gamePort = port().default(defaultPort);
  return { host: host(), port: portNote ? gamePort.describe(portNote) : gamePort, minPlayers: minPlayers() };
}

export function secret(what: string) {
  return z
    .string({ error: `expected the ${what} as a string` })
    .min(1, { error: `the ${what} must not be empty` })
    .max(4096);
}

export function httpUrl() {
  return z
    .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
    .max(2048, { error: 'expected at most 2048 characters' });
}

/** Text of at most `max` characters that `accepts` must take, and one message for anything else. */
export function checkedText(message: string, max: number, accepts: (text: string) => boolean) {
  return z
    .string({ error: message })
    .max(max, { error: `expected at most ${max} characters` })
    .refine(accepts, { error: message });
}
