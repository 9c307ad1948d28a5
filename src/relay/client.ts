// The agent's side of the relay protocol: GET /api/relay/config and POST /api/relay/results, with timeouts and byte caps.
import {
  RELAY_LIMITS,
  type RelayConfig,
  type ResultsResponse,
  relayConfigSchema,
  resultsResponseSchema,
} from './protocol.js';

/** Longest wait for one request (connect, send, answer). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Bytes of a results answer read at most (1000 rejections with their reasons fit well within). */
const RESULTS_RESPONSE_BYTES = 1024 * 1024;
/** Bytes of an error body read at most, for its detail. */
const ERROR_BODY_BYTES = 4096;

/** The server answered, but not with success. */
export class RelayHttpError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`HTTP ${status}${detail ? `: ${detail}` : ''}`);
  }
}

export type ConfigPoll = { kind: 'unchanged' } | { kind: 'changed'; config: RelayConfig; etag: string | null };

export interface RelayClient {
  /** `signal` cuts the request short (shutdown); it also ends after REQUEST_TIMEOUT_MS. */
  getConfig(etag: string | null, signal?: AbortSignal): Promise<ConfigPoll>;
  /** Sends an already-serialized `{ "results": [...] }` body. */
  submit(body: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<ResultsResponse>;
}

export function createRelayClient(options: {
  url: string;
  token: string;
  fetch?: typeof fetch;
  userAgent?: string;
}): RelayClient {
  const base = options.url.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  const headers = { authorization: `Bearer ${options.token}`, 'user-agent': options.userAgent ?? 'warden-relay' };
  return {
    async getConfig(etag, signal) {
      const res = await send(`${base}/api/relay/config`, {
        headers: { ...headers, ...(etag ? { 'if-none-match': etag } : {}) },
        signal: withTimeout(REQUEST_TIMEOUT_MS, signal),
      });
      if (res.status === 304) {
        await res.body?.cancel();
        return { kind: 'unchanged' };
      }
      if (!res.ok) throw await httpError(res);
      const config = relayConfigSchema.parse(JSON.parse(await readCapped(res, RELAY_LIMITS.configBytes)));
      return { kind: 'changed', config, etag: res.headers.get('etag') };
    },
    async submit(body, { timeoutMs = REQUEST_TIMEOUT_MS, signal } = {}) {
      const res = await send(`${base}/api/relay/results`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        signal: withTimeout(timeoutMs, signal),
      });
      if (!res.ok) throw await httpError(res);
      return resultsResponseSchema.parse(JSON.parse(await readCapped(res, RESULTS_RESPONSE_BYTES)));
    },
  };
}

/** Why a request failed, in a few words for the log ("connection refused", "HTTP 503: …", "timed out"). */
export function describeFailure(error: unknown): string {
  if (error instanceof RelayHttpError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'host name not found';
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

function withTimeout(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

async function httpError(res: Response): Promise<RelayHttpError> {
  let detail = '';
  try {
    const text = await readCapped(res, ERROR_BODY_BYTES);
    const body = JSON.parse(text) as { detail?: unknown; title?: unknown };
    detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : '';
  } catch {}
  return new RelayHttpError(res.status, detail);
}

/** The body as text, failing (and hanging up) past maxBytes. */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`the server's answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
