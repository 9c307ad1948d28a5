// Every limit of the push endpoints, in one place; documented in docs/push.md.

export const PUSH_LIMITS = {
  /** Bytes of a POST body; a larger one is answered 413 (it is not read past this, whatever its framing). */
  bodyBytes: 16 * 1024,
  /** Push tokens whose rate (WARDEN_PUSH_RATE, WARDEN_PUSH_BURST) one process tracks at most; full buckets are swept first. */
  rateTrackedTokens: 100_000,
  /** Characters of `msg`. */
  msgChars: 500,
  /** Largest `latency`, in milliseconds (one hour). */
  latencyMs: 3_600_000,
  /** Largest `players` and `maxPlayers`. */
  players: 10_000_000,
  /** Largest `tps` (ticks per second). */
  tps: 1000,
  /** Extra (unlisted) properties a POST body may carry; they are kept in the check's data. */
  extraProperties: 32,
  /** Characters of an extra property's name. */
  extraNameChars: 64,
  /** Bytes of all extra properties together, as JSON. */
  extraBytes: 8 * 1024,
} as const;
