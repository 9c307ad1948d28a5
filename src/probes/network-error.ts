// Plain-language descriptions of socket and DNS errors, shared by every probe.

export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
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
      return `timed out after ${formatSeconds(timeoutMs)}`;
    case 'EPIPE':
      return 'connection closed by the server';
    default: {
      if ((error as Error | null)?.name === 'AbortError' || (error as Error | null)?.name === 'TimeoutError')
        return `timed out after ${formatSeconds(timeoutMs)}`;
      const message = error instanceof Error ? error.message : String(error);
      return code ? `${message} (${code})` : message;
    }
  }
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
