// WebSocket endpoints: the upgrade, and optionally one message sent and the first answer checked.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openWebSocket } from '../net/socket-exchange.js';
import { probeOver, stopwatch } from './exchange.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const WEBSOCKET_LIMITS = {
  /** Largest message read; a larger one fails the check as soon as its header announces it. */
  messageBytes: 64 * 1024,
  /** Largest message sent. */
  sendBytes: 64 * 1024,
  /** Characters of an answer a result shows. */
  shownChars: 200,
} as const;

const URL_MESSAGE = 'expected a ws:// or wss:// URL';

export const websocketConfig = z
  .object({
    url: z
      .url({ protocol: /^wss?$/, error: URL_MESSAGE })
      .max(2048, { error: 'expected at most 2048 characters' })
      .describe('The endpoint, ws:// or wss://.'),
    message: z
      .string({ error: 'expected text' })
      .max(WEBSOCKET_LIMITS.sendBytes, { error: `expected at most ${WEBSOCKET_LIMITS.sendBytes / 1024} KiB` })
      .optional()
      .describe('A text message sent once the connection is open; the first message back is then the answer.'),
    expect: z
      .string({ error: 'expected text' })
      .min(1, { error: 'expected at least 1 character' })
      .max(1024, { error: 'expected at most 1024 characters' })
      .optional()
      .describe('Text the first message from the server must contain.'),
    headers: z
      .record(z.string().min(1).max(256), z.string().max(4096))
      .optional()
      .describe('Headers of the upgrade request (a token, a cookie). Secret: never shown.'),
    ignoreTls: z.boolean().default(false).describe('Accept an invalid or self-signed certificate (wss://).'),
  })
  .strict();

export const websocket = defineProbe({
  id: 'websocket',
  label: 'WebSocket',
  config: websocketConfig,
  secrets: ['headers'],
  targets: ['url'],
  probe: async (config, ctx) => {
    const sinceStart = stopwatch();
    const options = {
      maxPayload: WEBSOCKET_LIMITS.messageBytes,
      perMessageDeflate: false,
      followRedirects: false,
      rejectUnauthorized: !config.ignoreTls,
      ...(config.headers ? { headers: config.headers } : {}),
    };
    const open = () => openWebSocket(ctx, config.url, options);
    const waitsForAnswer = config.message !== undefined || config.expect !== undefined;
    return probeOver(open, ctx, (socket, { finish }) => {
      let sinceOpen = sinceStart;
      socket.on('open', () => {
        const upgradeMs = sinceStart();
        sinceOpen = stopwatch();
        if (!waitsForAnswer)
          return finish({
            ok: true,
            latencyMs: upgradeMs,
            message: `upgraded in ${upgradeMs} ms`,
            ...(socket.protocol ? { data: { protocol: socket.protocol } } : {}),
          });
        if (config.message !== undefined) socket.send(config.message);
      });
      socket.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        const bytes = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
        finish(judge(bytes, isBinary, config, sinceStart(), sinceOpen()));
      });
      socket.on('unexpected-response', (_request, response) =>
        finish({
          ok: false,
          error: `unexpected response: HTTP ${response.statusCode} instead of a WebSocket upgrade`,
        }),
      );
      socket.on('close', (code: number, reason: Buffer) => {
        const why =
          code === 1005
            ? 'without a close code'
            : `with code ${code}${reason.length > 0 ? ` (${clip(reason.toString('utf8'))})` : ''}`;
        finish({ ok: false, error: `the server closed the connection ${why} before answering` });
      });
      socket.on('error', (error: Error & { code?: string }) =>
        finish({ ok: false, error: describeWebSocketError(error, ctx.timeoutMs) }),
      );
    });
  },
});

function judge(
  bytes: Buffer,
  isBinary: boolean,
  config: z.output<typeof websocketConfig>,
  latencyMs: number,
  answerMs: number,
): ProbeResult {
  const text = bytes.toString(isBinary ? 'hex' : 'utf8');
  const shown = clip(text);
  const data = { answer: shown, answerBytes: bytes.length, binary: isBinary };
  if (config.expect !== undefined && !text.includes(config.expect))
    return {
      ok: false,
      error: `the answer does not contain ${JSON.stringify(config.expect)}: ${JSON.stringify(shown)}`,
      data,
    };
  return { ok: true, latencyMs, message: `answered in ${answerMs} ms: ${JSON.stringify(shown)}`, data };
}

function describeWebSocketError(error: Error & { code?: string }, timeoutMs: number): string {
  if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
    return `unexpected response: a message larger than ${WEBSOCKET_LIMITS.messageBytes / 1024} KiB`;
  if (error.code?.startsWith('WS_ERR_')) return `unexpected response: ${error.message}`;
  if (error.code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return 'the TLS certificate is self-signed (set ignoreTls to accept it)';
  if (error.message === 'socket hang up') return 'the server closed the connection during the upgrade';
  return describeNetworkError(error, timeoutMs);
}

function clip(text: string): string {
  return text.length > WEBSOCKET_LIMITS.shownChars ? `${text.slice(0, WEBSOCKET_LIMITS.shownChars)}…` : text;
}
