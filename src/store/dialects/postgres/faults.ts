// Which PostgreSQL errors pass: the server down, restarting or cut off, out of connections, or its disk full.
import type { StorageFault } from '../../../domain/errors.js';

/** The socket's errors while PostgreSQL is away or the network between is down. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs: 57P01 admin_shutdown (a restart or pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up or shutting down), 53300 too_many_connections, 53200 out_of_memory, and class 08 (connection exceptions).
 */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53200']);
/** 53100 disk_full. */
const FULL_STATES = new Set(['53100']);
/** What pg says, without a code, of a connection that died under it or could not be had. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

export function postgresFault(error: unknown): StorageFault | null {
  if (error instanceof AggregateError && error.errors.some((e) => postgresFault(e) !== null)) return 'unreachable';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (FULL_STATES.has(code)) return 'full';
    if (UNREACHABLE_STATES.has(code) || SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'unreachable';
  }
  if (error instanceof Error && CONNECTION_LOST.test(error.message)) return 'unreachable';
  return null;
}
