// A fake PostgreSQL server speaking protocol 3.0 byte for byte: it refuses SSL, asks for a cleartext password, and
// answers every simple query with one text row; for the cases the real server here (trust auth) cannot show.
import { createServer, type Socket } from 'node:net';

export interface PostgresFakeOptions {
  password: string;
  /** The one value every query answers. */
  answer?: string;
  /** The wording of a refused password; `%s` is replaced by the password received (a server that echoes it). */
  refusal?: string;
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
  const sockets = new Set<Socket>();
  const startups: Record<string, string>[] = [];
  const queries: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let started = false;
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
          socket.write(message('R', int32(3)));
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0] as number);
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type === 'p') {
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
