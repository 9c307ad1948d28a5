// The push URLs of heartbeat monitors whose token Warden made when warden.yaml was applied: shown this once, since only
// the token's hash is kept (`warden config apply` prints them, the server logs them at start-up).
import type { Logger } from '../../logger.js';

export interface NewPushToken {
  /** The monitor's key. */
  monitor: string;
  token: string;
}

/** Where a heartbeat pings, by GET or POST (docs/push.md). */
export function pushUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/push/${token}`;
}

/** One line per new token, at warn so that it stands out of the start-up log as the setup link does; the URL is in it once. */
export function announcePushTokens(logger: Logger, tokens: readonly NewPushToken[], baseUrl: string): void {
  for (const { monitor, token } of tokens)
    logger.warn(
      { monitor },
      `heartbeat monitor ${monitor}: push to ${pushUrl(baseUrl, token)} (shown this once; \`warden monitors token ${monitor}\` issues a new one)`,
    );
}
