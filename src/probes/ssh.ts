// SSH servers: the identification string a server sends before anything else ("SSH-2.0-OpenSSH_9.6p1 Ubuntu-3",
// RFC 4253 §4.2). Nothing is sent: the connection closes once the string is read.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { probeOverTcp } from './exchange.js';
import { host, port } from './fields.js';
import { LineBuffer } from './lines.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const SSH_LIMITS = {
  /** Bytes read before the identification string at most: RFC 4253 lets a server send other lines first. */
  bytes: 4096,
  /** Longest identification string shown, as RFC 4253 bounds it (255 characters with CR LF). */
  lineChars: 255,
} as const;

export const sshConfig = z
  .object({
    host: host(),
    port: port().default(22),
    expect: z
      .string({ error: 'expected text' })
      .min(1, { error: 'expected at least 1 character' })
      .max(SSH_LIMITS.lineChars, { error: `expected at most ${SSH_LIMITS.lineChars} characters` })
      .optional()
      .describe('Text the identification string must contain, e.g. OpenSSH_9.'),
  })
  .strict();

export const ssh = defineProbe({
  id: 'ssh',
  label: 'SSH server',
  config: sshConfig,
  probe: (config, ctx) =>
    probeOverTcp(config, ctx, (socket, { finish }, elapsed) => {
      const lines = new LineBuffer('latin1');
      let read = 0;
      socket.on('data', (chunk: Buffer) => {
        read += chunk.length;
        const line = lines.push(chunk).find((text) => text.startsWith('SSH-'));
        if (line !== undefined) return finish(judge(line, config, elapsed()));
        if (read > SSH_LIMITS.bytes)
          finish({
            ok: false,
            error: `unexpected response: no SSH identification string in the first ${SSH_LIMITS.bytes / 1024} KiB`,
          });
      });
      socket.on('end', () =>
        finish({ ok: false, error: 'the server closed the connection without sending an SSH identification string' }),
      );
      socket.once('error', (error) => finish({ ok: false, error: describeNetworkError(error, ctx.timeoutMs) }));
    }),
});

const IDENTIFICATION = /^SSH-([^-\s]+)-(\S+)(?: (.*))?$/;

/** The verdict on an identification line: SSH 2 (or 1.99, which also speaks 2), and the expected text when one is set. */
export function judge(line: string, config: { expect?: string }, latencyMs: number): ProbeResult {
  const shown = printable(line).slice(0, SSH_LIMITS.lineChars);
  const parts = IDENTIFICATION.exec(shown);
  if (!parts)
    return { ok: false, error: `unexpected response: ${JSON.stringify(shown)} is not an SSH identification string` };
  const [, protocol = '', software = '', comment] = parts;
  const data: Record<string, unknown> = {
    sshProtocol: protocol,
    sshSoftware: software,
    ...(comment ? { sshComment: comment } : {}),
  };
  if (protocol !== '2.0' && protocol !== '1.99')
    return { ok: false, error: `the server speaks SSH ${protocol} only (${shown}); SSH 2.0 is expected`, data };
  if (config.expect !== undefined && !shown.includes(config.expect))
    return {
      ok: false,
      error: `the identification string ${JSON.stringify(shown)} does not contain ${JSON.stringify(config.expect)}`,
      data,
    };
  return { ok: true, latencyMs, message: shown, data };
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u00a0]/g, '?');
}
