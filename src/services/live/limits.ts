// The bounds of the live stream: connections, per-client buffer, liveness pings, incoming bytes. Documented in docs/live.md.

export interface LiveLimits {
  /** Open streams per process; more are refused with 503 until some close. */
  maxConnections: number;
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
  maxConnections: 20_000,
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
  maxIncomingBytes: 1024,
  keepWarmMs: 15_000,
  closeGraceMs: 1_000,
};

/** Close codes the server uses besides the standard ones (1001 going away, 1009 too big). */
export const LIVE_CLOSE = {
  goingAway: 1001,
  /** The page was deleted. */
  pageGone: 4404,
  /** The page's password was set or changed: connect again with it. */
  accessChanged: 4401,
} as const;
