// A fake PostgreSQL server speaking protocol 3.0 byte for byte: it refuses SSL, asks for a cleartext password (or
// SCRAM-SHA-256, as PostgreSQL 14 and later do by default: the proof checked, its own signature sent), and answers
// every simple query with one text row; for the cases the real server here (trust auth) cannot show.
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { type ScramConversation, scramConversation } from './scram-server.js';

export interface PostgresFakeOptions {
  password: string;
  /** The one value every query answers. */
  answer?: string;
  /** The wording of a refused password; `%s` is replaced by the password received (a server that echoes it). */
  refusal?: string;
  /** Ask for SCRAM-SHA-256 with this many iterations (PostgreSQL's scram_iterations, 4096 by default). */
  scramIterations?: number;
}

export interface PostgresFake {
  port: number;
  /** The startup parameters of each connection (user, database, application_name, …). */
  startups: Record<string, string>[];
  queries: string[];
  close(): Promise<void>;
}

const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const cstring = (text: string) => Buffer.from(`${text}\0`);
const message = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
};

export function errorResponse(code: string, text: string): Buffer {
  return message(
    'E',
    Buffer.from('S'),
    cstring('FATAL'),
    Buffer.from('V'),
    cstring('FATAL'),
    Buffer.from('C'),
    cstring(code),
    Buffer.from('M'),
    cstring(text),
    Buffer.from([0]),
  );
}

export async function startPostgresFake(options: PostgresFakeOptions): Promise<PostgresFake> {
  const salt = randomBytes(16);
  const iterations = options.scramIterations ?? 4096;
  const salted = options.scramIterations ? pbkdf2Sync(options.password, salt, iterations, 32, 'sha256') : undefined;
  const sockets = new Set<Socket>();
  const startups: Record<string, string>[] = [];
  const queries: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let started = false;
    let scram: ScramConversation | undefined;
    const refuse = () => {
      const user = startups.at(-1)?.user ?? '';
      socket.end(errorResponse('28P01', `password authentication failed for user "${user}"`));
    };
    const loggedIn = () => {
      const status = message('S', cstring('server_version'), cstring('16.4 (fake)'));
      socket.write(Buffer.concat([message('R', int32(0)), status, message('Z', Buffer.from('I'))]));
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 4) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const body = buffer.subarray(8, length);
          buffer = buffer.subarray(length);
          if (code === 80877103) {
            socket.write('N');
            continue;
          }
          const fields = body.toString('utf8').split('\0');
          const params: Record<string, string> = {};
          for (let i = 0; i + 1 < fields.length; i += 2)
            if (fields[i]) params[fields[i] as string] = fields[i + 1] as string;
          startups.push(params);
          started = true;
          // AuthenticationSASL with its one mechanism, or AuthenticationCleartextPassword.
          socket.write(
            salted ? message('R', int32(10), cstring('SCRAM-SHA-256'), Buffer.from([0])) : message('R', int32(3)),
          );
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0] as number);
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type === 'p' && salted && !scram) {
          // SASLInitialResponse: the mechanism, then the client-first-message with its length.
          scram = scramConversation('sha256', salted, salt, iterations);
          const serverFirst = scram.first(body.toString('utf8', body.indexOf(0) + 5));
          socket.write(message('R', int32(11), Buffer.from(serverFirst)));
        } else if (type === 'p' && salted && scram) {
          // SASLResponse: the client-final-message, whose proof only the password makes.
          const serverFinal = scram.final(body.toString('utf8'));
          if (serverFinal === undefined) return refuse();
          socket.write(message('R', int32(12), Buffer.from(serverFinal)));
          loggedIn();
        } else if (type === 'p') {
          const given = body.toString('utf8').replace(/\0$/, '');
          if (given !== options.password) {
            const user = startups.at(-1)?.user ?? '';
            const text = (options.refusal ?? `password authentication failed for user "${user}"`).replace('%s', given);
            socket.end(errorResponse('28P01', text));
            return;
          }
          const status = message('S', cstring('server_version'), cstring('16.4 (fake)'));
          socket.write(Buffer.concat([message('R', int32(0)), status, message('Z', Buffer.from('I'))]));
        } else if (type === 'Q') {
          queries.push(body.toString('utf8').replace(/\0$/, ''));
          const value = Buffer.from(options.answer ?? '1');
          const description = message(
            'T',
            int16(1),
            cstring('answer'),
            int32(0),
            int16(0),
            int32(25),
            int16(-1),
            int32(-1),
            int16(0),
          );
          const row = message('D', int16(1), int32(value.length), value);
          socket.write(
            Buffer.concat([description, row, message('C', cstring('SELECT 1')), message('Z', Buffer.from('I'))]),
          );
        } else if (type === 'X') {
          socket.end();
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    startups,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
