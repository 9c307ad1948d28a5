// What every outbound connection runs with, for probes, notification channels and the relay alike.
import type { TargetGuard } from './target-guard.js';

export interface NetContext {
  /** Aborted when the time is up or the process shuts down; the caller's sockets must close and it must return. */
  signal: AbortSignal;
  timeoutMs: number;
  /**
   * What may be connected to. Sockets open through socket-exchange.ts and http-get.ts, which apply it; the edge
   * scheduler passes the organization's policy, the relay agent ANY_TARGET.
   */
  guard: TargetGuard;
}
