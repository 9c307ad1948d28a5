// Structured logs (pino) that never carry a secret: auth headers are redacted and tokens in URLs masked. JSON lines by
// default; readable lines (pino-pretty, loaded only then) for a person at a terminal.
import { createRequire } from 'node:module';
import { type Logger, pino } from 'pino';
import { StorageUnavailableError } from './domain/errors.js';

export type { Logger };

/** `json`: one JSON object per line (for machines); `pretty`: a readable line per event (for a terminal). */
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format?: LogFormat | undefined;
  /** Pretty lines only: colours; by default when standard error is a terminal and NO_COLOR is not set. */
  colors?: boolean | undefined;
}

/** Redaction runs before either format writes: a pretty line is as free of secrets as a JSON one. */
const REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    '*.password',
    '*.token',
    '*.apiKey',
    '*.botToken',
    'config.password',
  ],
  censor: '[redacted]',
};

export function createLogger(level: string, destination?: pino.DestinationStream, options: LoggerOptions = {}): Logger {
  const stream =
    options.format === 'pretty'
      ? prettyStream(destination, options.colors ?? colorsWanted())
      : (destination ?? pino.destination({ fd: 2, sync: false }));
  return pino({ level, base: { service: 'warden' }, redact: REDACT }, stream);
}

/** LOG_FORMAT as set, else readable lines when standard error is a terminal and JSON lines otherwise. */
export function logFormatOf(value: string | undefined): LogFormat {
  return value === 'json' || value === 'pretty' ? value : process.stderr.isTTY ? 'pretty' : 'json';
}

/** https://no-color.org: present and not empty turns colours off. */
function colorsWanted(): boolean {
  return process.stderr.isTTY === true && !process.env.NO_COLOR;
}

/**
 * pino-pretty's formatter called in this process, each line written at once (a terminal reads at the speed of a
 * person; a worker thread or a stream pipeline would cost start-up time and could lose the last lines of a crash).
 * Required here, not imported at the top: a server logging JSON never loads it.
 */
function prettyStream(destination: pino.DestinationStream | undefined, colorize: boolean): pino.DestinationStream {
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
  const out = destination ?? pino.destination({ fd: 2, sync: true });
  return { write: (line: string) => void out.write(format(line)) };
}

/**
 * A failure of background work (a sweep, a poll, a commit nobody waits on): at error level, unless the database being
 * unavailable explains it (StorageUnavailableError), then at debug: the storage watch (runner/storage-watch.ts) writes
 * one line when the outage starts and one when it ends, not one per failure.
 */
export function logFailure(
  logger: Logger,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (error instanceof StorageUnavailableError) logger.debug({ ...fields, err: error, fault: error.fault }, message);
  else logger.error({ ...fields, err: error }, message);
}
