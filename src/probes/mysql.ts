// MySQL and MariaDB: connect (TLS if asked, upgraded in the protocol), authenticate, optionally run a query and compare
// the first value of its first row. The socket is opened through the target guard and handed to mysql2.
import type { Socket } from 'node:net';
import type { Connection } from 'mysql2/promise';
import type { z } from 'zod';
import { type QueryOutcome, queryVerdict } from './answer.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult, withLibrary } from './probe.js';
import { loginFields, serviceName, sqlConfig } from './service-fields.js';
import { overConnection, overSocket } from './session.js';

export const mysqlConfig = sqlConfig({
  ...loginFields('MySQL', port().default(3306), { fallback: 'root', key: 'user' }),
  database: serviceName('database name', 64).optional().describe('The database to use, if any.'),
});

export const mysqlProbe = defineProbe({
  id: 'mysql',
  label: 'MySQL / MariaDB',
  config: mysqlConfig,
  probe: withLibrary(
    () => import('mysql2/promise'),
    (mysql) => overConnection((socket, config, ctx, elapsed) => session(mysql, socket, config, ctx, elapsed)),
  ),
});

async function session(
  mysql: typeof import('mysql2/promise'),
  socket: Socket,
  config: z.output<typeof mysqlConfig>,
  ctx: ProbeContext,
  elapsed: () => number,
): Promise<ProbeResult> {
  let connection: Connection | undefined;
  const outcome = await overSocket(
    socket,
    ctx,
    async (): Promise<QueryOutcome> => {
      connection = await mysql.createConnection({
        host: config.host,
        port: config.port,
        user: config.user,
        password: config.password ?? '',
        database: config.database,
        ssl: config.tls ? { rejectUnauthorized: !config.ignoreTls } : undefined,
        stream: socket,
        // The probe keeps the deadline; mysql2's own 10 s timer would outlive an aborted check.
        connectTimeout: 0,
        multipleStatements: false,
        // Numbers and dates as the server wrote them.
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: true,
        // No prepared statements: mysql2 sizes each connection's statement cache for this many up front (16,000 by
        // default, several arrays of that length made and collected per check: a third of the probe's CPU).
        maxPreparedStatements: 1,
      });
      connection.on('error', () => {});
      const handshake = (connection as unknown as { connection: { _handshakePacket?: { serverVersion?: string } } })
        .connection._handshakePacket;
      // MariaDB prefixes its version with 5.5.5- for old replication clients.
      const serverVersion = handshake?.serverVersion?.replace(/^5\.5\.5-/, '');
      if (config.query === undefined) return { serverVersion };
      const [rows] = await connection.query({ sql: config.query, rowsAsArray: true });
      const list = Array.isArray(rows) ? (rows as unknown[][]) : [];
      return { serverVersion, answer: { value: list[0]?.[0], rows: list.length } };
    },
    () => connection?.destroy(),
    (error) => describeMysqlError(error),
  );
  if ('error' in outcome) return { ok: false, error: outcome.error };
  return queryVerdict(config, outcome, elapsed(), 'server');
}

/** The server's own words for its errors (Access denied…, Unknown database…), with their code. */
function describeMysqlError(error: unknown): string | undefined {
  const { sqlMessage, code } = error as { sqlMessage?: string; code?: string };
  if (sqlMessage) return code ? `${sqlMessage} (${code})` : sqlMessage;
  if (code === 'PROTOCOL_CONNECTION_LOST') return 'connection closed by the server';
  return undefined;
}
