// What the smtp, imap and pop3 monitors share: the greeting, STARTTLS (or TLS from the first byte) and the certificate,
// over one connection that reads replies line by line, each at most 4 KiB.
import { isIP, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { bareHost } from '../net/hosts.js';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp, openTls, type SocketExchange, startTls } from '../net/socket-exchange.js';
import { probeOver } from './exchange.js';
import { certExpiryDays, host, port } from './fields.js';
import { LineBuffer } from './lines.js';
import { defineProbe, type ProbeContext, type ProbeFn, type ProbeResult } from './probe.js';
import { describeHandshakeError, judgeHandshake, pemCertificates, tlsConfig } from './tls.js';

export const MAIL_LIMITS = {
  /** Bytes of one reply (a greeting, an EHLO list): a few hundred in practice. */
  replyBytes: 4096,
  /** Characters of the greeting a result shows. */
  bannerChars: 200,
} as const;

/** What differs between SMTP, IMAP and POP3: ports, the greeting, how STARTTLS is asked for, how to say goodbye. */
export interface MailDialect {
  name: 'SMTP' | 'IMAP' | 'POP3';
  ports: { plain: number; tls: number };
  /** True when the line ends the greeting (SMTP's "220-" lines continue it). */
  greetingEnds(line: string): boolean;
  /** Why the greeting is no ready server's, or undefined when it is one. */
  refusal(greeting: string[]): string | undefined;
  /** Asks for TLS over the connection; throws a MailFailure when the server will not. */
  askForTls(session: LineSession): Promise<void>;
  quit: string;
}

/** A failure already in words: a refusal, a protocol the server does not speak, a reply too long. */
export class MailFailure extends Error {}

export function mailConfig(dialect: MailDialect) {
  return z
    .object({
      host: host(),
      port: port().optional().describe(`${dialect.ports.plain}, or ${dialect.ports.tls} with security: tls.`),
      security: z
        .enum(['starttls', 'tls', 'none'])
        .default('starttls')
        .describe(
          'starttls: plain text, then STARTTLS; tls: TLS from the first byte; none: the greeting only, no TLS.',
        ),
      servername: tlsConfig.shape.servername,
      certExpiryDays: certExpiryDays(),
      ca: tlsConfig.shape.ca,
    })
    .strict();
}

export type MailConfig = z.output<ReturnType<typeof mailConfig>>;

/** A mail monitor type: its id and label, the dialect saying the rest. */
export function defineMailProbe(id: 'smtp' | 'imap' | 'pop3', label: string, dialect: MailDialect) {
  return defineProbe({ id, label, config: mailConfig(dialect), probe: mailProbe(dialect) });
}

function mailProbe(dialect: MailDialect): ProbeFn<MailConfig> {
  return (config, ctx) => {
    const name = bareHost(config.host);
    const servername = config.servername ?? (isIP(name) === 0 ? name : undefined);
    const ca = config.ca === undefined ? undefined : (pemCertificates(config.ca) ?? undefined);
    // As the tls monitor does: the certificate is judged after the handshake, so a refused one can be named.
    const tlsOptions = { rejectUnauthorized: false, ...(servername ? { servername } : {}), ...(ca ? { ca } : {}) };
    const port = config.port ?? (config.security === 'tls' ? dialect.ports.tls : dialect.ports.plain);
    const open = (): Socket =>
      config.security === 'tls' ? openTls(ctx, config.host, port, tlsOptions) : openTcp(ctx, config.host, port);
    return probeOver(open, ctx, (socket, exchange, elapsed) => {
      const conversation = { dialect, config, ctx, exchange, elapsed, identity: servername ?? name, tlsOptions };
      converse(socket, conversation).then(exchange.finish, (error: unknown) =>
        exchange.finish({ ok: false, error: describeMailError(error, ctx.timeoutMs) }),
      );
    });
  };
}

interface Conversation {
  dialect: MailDialect;
  config: MailConfig;
  ctx: ProbeContext;
  exchange: SocketExchange<ProbeResult>;
  /** Milliseconds since the check started. */
  elapsed: () => number;
  identity: string;
  tlsOptions: Parameters<typeof startTls>[1];
}

async function converse(
  socket: Socket,
  { dialect, config, ctx, exchange, elapsed, identity, tlsOptions }: Conversation,
): Promise<ProbeResult> {
  const session = new LineSession(socket);
  let secure = config.security === 'tls' ? (socket as TLSSocket) : undefined;
  if (secure) await session.handshake(secure, ctx.timeoutMs);
  const greeting = await session.reply(dialect.greetingEnds);
  const latencyMs = elapsed();
  const banner = clip(greeting.join(' '));
  const refused = dialect.refusal(greeting);
  if (refused) return { ok: false, error: refused, data: { banner } };
  if (config.security === 'starttls') {
    await dialect.askForTls(session);
    secure = startTls(socket, tlsOptions);
    exchange.adopt(secure);
    await session.handshake(secure, ctx.timeoutMs);
  }
  session.write(dialect.quit);
  if (!secure) return { ok: true, latencyMs, message: banner, data: { banner, security: config.security } };
  const verdict = judgeHandshake(secure, config, identity, latencyMs);
  const data = { banner, security: config.security, ...verdict.data };
  return verdict.ok ? { ...verdict, message: `${banner}; ${verdict.message}`, data } : { ...verdict, data };
}

/** One connection read as lines (CR LF or LF), a reply at a time; it follows the connection through STARTTLS. */
export class LineSession {
  private socket: Socket;
  private readonly incoming = new LineBuffer('utf8');
  private readonly lines: string[] = [];
  private waiter: { resolve(): void; reject(error: unknown): void } | undefined;
  private failure: unknown;

  constructor(socket: Socket) {
    this.socket = socket;
    this.listen(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The lines of the next reply, up to the one `ends` says ends it. */
  async reply(ends: (line: string) => boolean): Promise<string[]> {
    const reply: string[] = [];
    let bytes = 0;
    for (;;) {
      const line = await this.line();
      bytes += line.length + 2;
      if (bytes > MAIL_LIMITS.replyBytes)
        throw new MailFailure(`unexpected response: a reply longer than ${MAIL_LIMITS.replyBytes / 1024} KiB`);
      reply.push(line);
      if (ends(line)) return reply;
    }
  }

  /** Waits for the TLS handshake of `secure` and reads from it from then on. */
  async handshake(secure: TLSSocket, timeoutMs: number): Promise<void> {
    if (secure !== this.socket) {
      // Nothing may be read between the server's yes to STARTTLS and the handshake (RFC 3207 §4, CVE-2011-0411).
      if (this.lines.length > 0 || this.incoming.unfinished > 0)
        throw new MailFailure('unexpected response: the server sent more after agreeing to STARTTLS');
      this.socket.removeAllListeners('data');
      this.socket.removeAllListeners('end');
      this.socket = secure;
      this.listen(secure);
    }
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', (error) => reject(new MailFailure(describeHandshakeError(error, timeoutMs))));
    });
  }

  private line(): Promise<string> {
    const next = this.lines.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.waiter = { resolve, reject };
    }).then(() => this.line());
  }

  private listen(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      this.lines.push(...this.incoming.push(chunk));
      if (this.incoming.unfinished > MAIL_LIMITS.replyBytes)
        this.fail(new MailFailure(`unexpected response: a line longer than ${MAIL_LIMITS.replyBytes / 1024} KiB`));
      else this.wake();
    });
    socket.on('end', () => this.fail(new MailFailure('the server closed the connection')));
    socket.on('error', (error) => this.fail(error));
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter && (this.lines.length > 0 || this.failure === undefined)) waiter.resolve();
    else waiter?.reject(this.failure);
  }
}

function describeMailError(error: unknown, timeoutMs: number): string {
  return error instanceof MailFailure ? error.message : describeNetworkError(error, timeoutMs);
}

/** A reply or line as a result quotes it: at most 200 characters, control characters as "?". */
export function clip(text: string): string {
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > MAIL_LIMITS.bannerChars ? `${printable.slice(0, MAIL_LIMITS.bannerChars)}…` : printable;
}
