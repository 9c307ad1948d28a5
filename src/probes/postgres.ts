// PostgreSQL: connect (TLS through SSLRequest if asked), authenticate, optionally run a query and compare the first
// value of its first row. The socket is opened through the target guard and handed to pg, which never dials itself.
import type { Socket } from 'node:net';
import saslprep from '@mongodb-js/saslprep';
import type { z } from 'zod';
import { importPackage } from '../runtime/launcher.js';
import { type QueryOutcome, queryVerdict } from './answer.js';
import { scramFinal } from './codecs/scram.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult, withLibrary } from './probe.js';
import { databaseName, loginFields, sqlConfig } from './service-fields.js';
import { capReads, overConnection, overSocket } from './session.js';

export const postgresConfig = sqlConfig({
  ...loginFields('PostgreSQL', port().default(5432), { fallback: 'postgres', key: 'user' }),
  database: databaseName('postgres'),
});

export const postgres = defineProbe({
  id: 'postgres',
  label: 'PostgreSQL',
  config: postgresConfig,
  probe: withLibrary(
    async () => (await importPackage<typeof import('pg')>('pg')).default,
    (pg) => overConnection((socket, config, ctx, elapsed) => session(pg, socket, config, ctx, elapsed)),
  ),
});

async function session(
  pg: typeof import('pg').default,
  socket: Socket,
  config: z.output<typeof postgresConfig>,
  ctx: ProbeContext,
  elapsed: () => number,
): Promise<ProbeResult> {
  // pg calls connect() on the stream it is given and waits for 'connect': the socket is connected already.
  Object.assign(socket, {
    connect: () => {
      process.nextTick(() => socket.emit('connect'));
      return socket;
    },
  });
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password ?? '',
    database: config.database,
    ssl: config.tls ? { rejectUnauthorized: !config.ignoreTls } : false,
    stream: () => socket,
    application_name: 'warden',
    // The server stops the query at the probe's deadline too, rather than working on for a client that left.
    statement_timeout: ctx.timeoutMs,
    keepAlive: false,
  });
  // Errors reach the probe through connect() and query(); one between them (the socket torn down) has nobody to tell.
  client.on('error', () => {});
  keepSaltedPassword(client, config.password ?? '');
  const connection = (client as unknown as { connection: import('node:events').EventEmitter & { stream: Socket } })
    .connection;
  connection.once('sslconnect', () => capReads(connection.stream));
  const seen: QueryOutcome = {};
  connection.on('parameterStatus', (message: { parameterName: string; parameterValue: string }) => {
    if (message.parameterName === 'server_version') seen.serverVersion = message.parameterValue;
  });
  const outcome = await overSocket(
    socket,
    ctx,
    async () => {
      await client.connect();
      if (config.query === undefined) return seen;
      const result = await client.query({ text: config.query, rowMode: 'array' });
      // Several statements give several results: the last one answers.
      const last = Array.isArray(result) ? result.at(-1) : result;
      const rows = (last?.rows ?? []) as unknown[][];
      return { ...seen, answer: { value: rows[0]?.[0], rows: last?.rowCount ?? rows.length } };
    },
    () => client.end(),
  );
  if ('error' in outcome) return { ok: false, error: outcome.error };
  return queryVerdict(config, outcome, elapsed(), 'PostgreSQL');
}

/** What of pg's client the SCRAM step below takes over: its session, its connection, the handler it binds at connect. */
interface PgScram {
  saslSession: { mechanism: string; clientNonce: string; response: string; message: string; serverSignature?: string };
  connection: import('node:events').EventEmitter & { sendSCRAMClientFinalMessage(response: string): void };
  _handleAuthSASLContinue(message: { data: string }): Promise<void>;
}

/**
 * pg salts the password anew for every connection (PBKDF2, 4,096 rounds by default: 0.8 ms of CPU here, every check of
 * a PostgreSQL 14 or later server, which asks for SCRAM-SHA-256 unless told otherwise). Its SCRAM continue step is done
 * here with the probe's SCRAM (codecs/scram.ts), which keeps the salted password per user, salt and count; pg still
 * sends the first message and checks the server's signature. Set before connect(), when pg binds its handlers.
 */
function keepSaltedPassword(client: import('pg').Client, password: string): void {
  const pg = client as unknown as PgScram;
  pg._handleAuthSASLContinue = async ({ data }) => {
    const session = pg.saslSession;
    try {
      if (session.mechanism !== 'SCRAM-SHA-256') throw new Error(`SASL: ${session.mechanism} is not supported`);
      const state = {
        hash: 'sha256' as const,
        clientFirstBare: session.response.replace(/^n,,/, ''),
        clientNonce: session.clientNonce,
      };
      // PostgreSQL (libpq alike) takes the iteration count its administrator set, however low.
      const final = await scramFinal(state, preparedPassword(password), data, 1);
      Object.assign(session, {
        message: 'SASLResponse',
        response: final.clientFinal,
        serverSignature: final.serverSignature,
      });
      pg.connection.sendSCRAMClientFinalMessage(final.clientFinal);
    } catch (error) {
      pg.connection.emit('error', error);
    }
  };
}

/** SASLprep, as PostgreSQL applies it: a password it cannot prepare (a prohibited character) is used as it is. */
function preparedPassword(password: string): string {
  try {
    return saslprep(password);
  } catch {
    return password;
  }
}
