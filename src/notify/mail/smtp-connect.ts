// How every SMTP connection opens: nodemailer gets a socket opened through a target guard (its getSocket hook), so an
// email channel's own host is reached like a probe's target — every address the name resolves to is checked, the socket
// connects to a checked one, and the name stays nodemailer's host for STARTTLS, SNI and the certificate check. The system
// server (WARDEN_SMTP_URL, the operator's) goes through ANY_TARGET.
import type { Socket } from 'node:net';
import { openTcp } from '../../net/socket-exchange.js';
import { ANY_TARGET, type TargetGuard } from '../../net/target-guard.js';
import { importPackage } from '../../runtime/launcher.js';
import { portOf, SMTP_TIMEOUT_MS, type SmtpServer, transportOptions } from './smtp.js';

/** A transport for one message to `server`, its connection opened under `guard` and dropped when `signal` aborts. */
export async function smtpTransport(server: SmtpServer, signal: AbortSignal, guard: TargetGuard = ANY_TARGET) {
  // Loaded at the first message, not at start-up: most servers send none for hours, or never.
  const { default: nodemailer } = await importPackage<typeof import('nodemailer')>('nodemailer');
  return nodemailer.createTransport({
    ...transportOptions(server),
    getSocket: (_options, callback) => connect(server, guard, signal, callback),
  });
}

type Connected = (error: Error | null, socketOptions?: { connection: Socket }) => void;

/** Hands nodemailer the socket once it is connected, or the error (a refusal, ECONNREFUSED, a timeout) instead. */
function connect(server: SmtpServer, guard: TargetGuard, signal: AbortSignal, callback: Connected): void {
  const socket = openTcp({ guard }, server.host, portOf(server));
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    socket.setTimeout(0);
    socket.removeListener('error', settle);
    socket.removeListener('connect', connected);
    signal.removeEventListener('abort', aborted);
    if (error === null) return callback(null, { connection: socket });
    socket.destroy();
    callback(error);
  };
  const connected = () => settle(null);
  const aborted = () => settle(Object.assign(new Error('aborted'), { code: 'EABORT' }));
  socket.once('error', settle);
  socket.once('connect', connected);
  socket.setTimeout(SMTP_TIMEOUT_MS, () =>
    settle(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' })),
  );
  if (signal.aborted) aborted();
  else signal.addEventListener('abort', aborted, { once: true });
}
