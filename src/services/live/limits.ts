// The bounds of the live stream: connections, per-client buffer, liveness pings, incoming bytes. Documented in docs/live.md.
// How many streams one client and the whole process may hold is a security setting (src/domain/security.ts):
// WARDEN_LIVE_PER_CLIENT, and WARDEN_LIVE_MAX or, by default, the share of the file-descriptor limit below.

export interface LiveLimits {
  /** A client whose unsent bytes pass this is disconnected (it cannot keep up) instead of buffering without end. */
  maxBufferedBytes: number;
  /** The server pings every client this often; one that has not answered the previous ping is dropped. */
  pingIntervalMs: number;
  /** Clients have nothing to say; a frame larger than this closes the stream (1009). */
  maxIncomingBytes: number;
  /** Pages with listeners are read this often, so the page cache keeps them warm and current. */
  keepWarmMs: number;
  /** On shutdown, clients get a close frame (1001) and this long to answer before their sockets are cut. */
  closeGraceMs: number;
}

export const LIVE_LIMITS: LiveLimits = {
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
  maxIncomingBytes: 1024,
  keepWarmMs: 15_000,
  closeGraceMs: 1_000,
};

/** Descriptors kept for everything but live streams before any is shared: the database, probes, relays, logs, DNS. */
export const LIVE_DESCRIPTOR_RESERVE = 256;
/** The soft limit assumed where the process cannot read its own (no /proc/self/limits): the usual default. */
export const DEFAULT_DESCRIPTOR_LIMIT = 1024;
/** Streams refused beyond the cap are told to retry after this long (Retry-After). */
export const LIVE_RETRY_AFTER_SEC = 30;

/**
 * The streams a process takes in all when WARDEN_LIVE_MAX is not set: half of the descriptors above the reserve, so
 * HTTP connections always have the other half. `(limit − 256) / 2`, at least 1: 1,024 descriptors give 384 streams,
 * 65,536 give 32,640, 1,048,576 give 524,160.
 */
export function liveConnectionsCap(descriptorLimit: number): number {
  return Math.max(1, Math.floor((descriptorLimit - LIVE_DESCRIPTOR_RESERVE) / 2));
}

/** The soft "Max open files" of /proc/self/limits (Linux), DEFAULT_DESCRIPTOR_LIMIT when absent or unreadable. */
export function parseDescriptorLimit(procLimits: string | null): number {
  const match = procLimits === null ? null : /^Max open files\s+(\d+|unlimited)\s/m.exec(procLimits);
  if (!match) return DEFAULT_DESCRIPTOR_LIMIT;
  return match[1] === 'unlimited' ? 1 << 20 : Number(match[1]);
}

/** Close codes the server uses besides the standard ones (1001 going away, 1009 too big). */
export const LIVE_CLOSE = {
  goingAway: 1001,
  /** The page was deleted. */
  pageGone: 4404,
  /** The page's password was set or changed: connect again with it. */
  accessChanged: 4401,
} as const;
