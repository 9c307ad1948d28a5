// A real SMTP server (the smtp-server package) on 127.0.0.1 and a free port for the email channel's tests: plain,
// with STARTTLS or implicit TLS, with AUTH PLAIN/LOGIN, and rejecting recipients with a chosen reply.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Certificate } from './http-fakes.js';

export interface SmtpFakeOptions {
  /** Offered through STARTTLS, or from the first byte when `implicitTls`. */
  tls?: Certificate;
  implicitTls?: boolean;
  /** Requires AUTH PLAIN or LOGIN with these credentials; without it AUTH is not offered. */
  auth?: { username: string; password: string };
  /** Answers every RCPT TO with this reply, e.g. { code: 550, message: 'No such user' }. */
  rejectRecipients?: { code: number; message: string };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user who authenticated, if any. */
  user?: string;
  /** Whether the session ran over TLS (STARTTLS or implicit). */
  secure: boolean;
  raw: Buffer;
  parse(): Promise<ParsedMail>;
}

export interface FakeSmtpServer {
  host: '127.0.0.1';
  port: number;
  /** Every accepted message, newest last. */
  messages: ReceivedMail[];
  /** TCP connections accepted so far, whatever came of them. */
  connections(): number;
  close(): Promise<void>;
}

export async function startSmtpFake(options: SmtpFakeOptions = {}): Promise<FakeSmtpServer> {
  const messages: ReceivedMail[] = [];
  const disabled = [...(options.auth ? [] : ['AUTH']), ...(options.tls && !options.implicitTls ? [] : ['STARTTLS'])];
  const server = new SMTPServer({
    secure: options.implicitTls === true,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    disabledCommands: disabled,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 200,
    banner: 'warden test relay',
    onAuth(auth, _session, callback) {
      const expected = options.auth;
      if (expected && auth.username === expected.username && auth.password === expected.password)
        return callback(null, { user: auth.username });
      const error = Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 });
      return callback(error);
    },
    onRcptTo(_address, _session, callback) {
      const reject = options.rejectRecipients;
      if (reject) return callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...(typeof session.user === 'string' ? { user: session.user } : {}),
          secure: session.secure,
          raw,
          parse: () => simpleParser(raw),
        });
        callback(null, 'Message queued as test');
      });
    },
  });
  server.on('error', () => {});
  let connections = 0;
  server.server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
