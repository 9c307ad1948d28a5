// PostgreSQL: connect (TLS through SSLRequest if asked), authenticate, optionally run a query and compare the first
// value of its first row. The socket is opened through the target guard and handed to pg, which never dials itself.
import type { Socket } from 'node:net';
import pg from 'pg';
import { z } from 'zod';
import { answerText, expectedField, judgeAnswer } from './answer.js';
import { host, port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';
import { databaseName, password, statement, tlsFields, username } from './service-fields.js';
import { capReads, openConnected, overSocket, since } from './session.js';

export const postgresConfig = z
  .object({
    host: host(),
    port: port().default(5432),
    user: username('PostgreSQL', 'postgres'),
    password: password('PostgreSQL'),
    database: databaseName('postgres'),
    ...tlsFields(),
    query: statement('query')
      .optional()
      .describe(
        'A query to run, e.g. SELECT 1; its first value of the first row is the answer. Without one the check connects and logs in.',
      ),
    expected: expectedField('the first value of the first row'),
  })
  .strict()
  .refine((c) => c.expected === undefined || c.query !== undefined, {
    path: ['expected'],
    error: 'expected needs a query',
  });

export type PostgresConfig = z.output<typeof postgresConfig>;

export const postgres = defineProbe({
  id: 'postgres',
  label: 'PostgreSQL',
  config: postgresConfig,
  secrets: ['password'],
  probe: async (config, ctx) => {
    const started = performance.now();
    const opened = await openConnected(ctx, config.host, config.port);
    if ('error' in opened) return { ok: false, error: opened.error };
    return session(opened.socket, config, ctx, started);
  },
});

interface Session {
  serverVersion?: string;
  /** The query's first value, and how many rows it returned. */
  answer?: { value: unknown; rows: number };
}

async function session(
  socket: Socket,
  config: PostgresConfig,
  ctx: ProbeContext,
  started: number,
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
  const connection = (client as unknown as { connection: import('node:events').EventEmitter & { stream: Socket } })
    .connection;
  connection.once('sslconnect', () => capReads(connection.stream));
  const seen: Session = {};
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
  const latencyMs = since(started);
  const data: Record<string, unknown> = outcome.serverVersion ? { serverVersion: outcome.serverVersion } : {};
  if (!outcome.answer)
    return {
      ok: true,
      latencyMs,
      message: `logged in as ${config.user}${outcome.serverVersion ? `, PostgreSQL ${outcome.serverVersion}` : ''}`,
      data,
    };
  const { value, rows } = outcome.answer;
  const answer = rows === 0 ? '' : answerText(value);
  return judgeAnswer(config.expected, { latencyMs, asked: config.query as string, answer, data: { ...data, rows } });
}
