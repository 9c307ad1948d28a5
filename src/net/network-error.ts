// Plain-language descriptions of socket and DNS errors, and the one wording of a timeout, shared by every probe.
import { TARGET_REFUSED } from './target-guard.js';

export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case TARGET_REFUSED:
      // The probe-target policy's refusal says what was refused and why, in its own words.
      return (error as Error).message;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ENOTFOUND':
    case 'EAI_NONAME':
      return 'host name not found';
    case 'EAI_AGAIN':
      return 'DNS lookup failed (temporary)';
    case 'ETIMEDOUT':
    case 'ABORT_ERR':
      return timedOutAfter(timeoutMs);
    case 'EPIPE':
      return 'connection closed by the server';
    default: {
      if ((error as Error | null)?.name === 'AbortError' || (error as Error | null)?.name === 'TimeoutError')
        return timedOutAfter(timeoutMs);
      const message = error instanceof Error ? error.message : String(error);
      return code ? `${message} (${code})` : message;
    }
  }
}

/** The one wording of a check that ran out of time, whoever noticed first: run.ts, a probe, or a library's own timer. */
export function timedOutAfter(timeoutMs: number): string {
  return `timed out after ${formatSeconds(timeoutMs)}`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
