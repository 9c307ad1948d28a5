// UDP services: one datagram sent, the first answer read, optionally checked for the bytes it must contain.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openUdp } from '../net/socket-exchange.js';
import { atAddress, probeOver, stopwatch } from './exchange.js';
import { host, port } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const UDP_LIMITS = {
  /** Largest payload, decoded: well within one unfragmented datagram on most paths. */
  payloadBytes: 1400,
  /** Bytes of the answer read: one datagram, which is never larger; later datagrams are not read. */
  answerBytes: 64 * 1024,
  /** Characters of the answer a result shows. */
  shownChars: 200,
} as const;

const ENCODINGS = ['text', 'hex', 'base64'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** The bytes of `value` in `encoding`, or undefined when it is not valid in it. */
export function decodePayload(value: string, encoding: Encoding): Buffer | undefined {
  if (encoding === 'text') return Buffer.from(value, 'utf8');
  const compact = value.replace(/\s+/g, '');
  if (encoding === 'hex') return /^(?:[0-9a-fA-F]{2})*$/.test(compact) ? Buffer.from(compact, 'hex') : undefined;
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)
    ? Buffer.from(compact, 'base64')
    : undefined;
}

const bytesField = (what: string) =>
  z
    .string({ error: `expected the ${what} as a string` })
    .max(4 * UDP_LIMITS.payloadBytes, { error: `expected at most ${UDP_LIMITS.payloadBytes} bytes` });

export const udpConfig = z
  .object({
    host: host(),
    port: port(),
    payload: bytesField('payload').describe('What to send, in `encoding`; empty sends an empty datagram.'),
    encoding: z
      .enum(ENCODINGS)
      .default('text')
      .describe('How payload and expect are written: text (UTF-8), hex or base64.'),
    expect: bytesField('expected answer')
      .min(1, { error: 'expected at least 1 byte' })
      .optional()
      .describe('Bytes the answer must contain, in `encoding`.'),
  })
  .strict()
  .superRefine((config, ctx) => {
    for (const field of ['payload', 'expect'] as const) {
      const value = config[field];
      if (value === undefined) continue;
      const bytes = decodePayload(value, config.encoding);
      if (!bytes)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `expected ${config.encoding === 'hex' ? 'pairs of hex digits' : 'base64'}`,
        });
      else if (bytes.length > UDP_LIMITS.payloadBytes)
        ctx.addIssue({ code: 'custom', path: [field], message: `expected at most ${UDP_LIMITS.payloadBytes} bytes` });
    }
  });

export const udp = defineProbe({
  id: 'udp',
  label: 'UDP service',
  config: udpConfig,
  probe: atAddress(async (config, ctx, target) => {
    const payload = decodePayload(config.payload, config.encoding) ?? Buffer.alloc(0);
    const expected = config.expect === undefined ? undefined : decodePayload(config.expect, config.encoding);
    let sinceSent = stopwatch();
    const open = () => openUdp(target, config.port);
    return probeOver(open, ctx, (socket, { finish }) => {
      socket.once('connect', () => {
        sinceSent = stopwatch();
        socket.send(payload);
      });
      socket.once('message', (answer: Buffer) =>
        finish(judge(answer.subarray(0, UDP_LIMITS.answerBytes), expected, config, sinceSent())),
      );
      socket.once('error', (error: NodeJS.ErrnoException) => {
        // The kernel reports an ICMP port unreachable on a connected socket as a refused connection.
        if (error.code === 'ECONNREFUSED')
          return finish({ ok: false, error: `nothing listens on UDP port ${config.port} (port unreachable)` });
        finish({ ok: false, error: describeNetworkError(error, ctx.timeoutMs) });
      });
    });
  }),
});

function judge(
  answer: Buffer,
  expected: Buffer | undefined,
  config: z.output<typeof udpConfig>,
  latencyMs: number,
): ProbeResult {
  const shown = show(answer, config.encoding);
  const data = { answerBytes: answer.length, answer: shown };
  if (expected && answer.indexOf(expected) < 0)
    return {
      ok: false,
      error: `the answer does not contain ${JSON.stringify(config.expect)}: ${JSON.stringify(shown)}`,
      data,
    };
  return {
    ok: true,
    latencyMs,
    message: `${answer.length} byte${answer.length === 1 ? '' : 's'} in ${latencyMs} ms: ${JSON.stringify(shown)}`,
    data,
  };
}

/** The start of an answer as the monitor's encoding writes it; text with its unprintable bytes as "?". */
function show(answer: Buffer, encoding: Encoding): string {
  const head = answer.subarray(0, UDP_LIMITS.shownChars);
  const text =
    encoding === 'text'
      ? head.toString('utf8').replace(/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/g, '?')
      : head.toString(encoding);
  return answer.length > head.length ? `${text}…` : text;
}
