// A fake MySQL server speaking the client/server protocol 4.1 byte for byte: a v10 handshake offering
// mysql_native_password, any login accepted (or refused with the real wording), and every query answered with one row
// holding the query's own text, a server that echoes what it is sent.
import { createServer, type Socket } from 'node:net';

export interface MysqlFakeOptions {
  /** Refuse every login with ER_ACCESS_DENIED_ERROR, as a wrong password is. */
  refuseLogins?: boolean;
}

export interface MysqlFake {
  port: number;
  /** The user of each login. */
  users: string[];
  queries: string[];
  close(): Promise<void>;
}

const CAPABILITIES = 0x1 | 0x2 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x80000;

function packet(sequence: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence;
  return Buffer.concat([header, payload]);
}

function lengthEncoded(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  if (bytes.length < 251) return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  const length = Buffer.alloc(4);
  length[0] = 0xfd;
  length.writeUIntLE(bytes.length, 1, 3);
  return Buffer.concat([length, bytes]);
}

function handshake(): Buffer {
  const head = Buffer.alloc(4 + 8 + 1);
  head.writeUInt32LE(7, 0);
  Buffer.from('abcdefgh').copy(head, 4);
  const flags = Buffer.alloc(2 + 1 + 2 + 2 + 1 + 10);
  flags.writeUInt16LE(CAPABILITIES & 0xffff, 0);
  flags[2] = 45;
  flags.writeUInt16LE(0x0002, 3);
  flags.writeUInt16LE(CAPABILITIES >>> 16, 5);
  flags[7] = 21;
  return Buffer.concat([
    Buffer.from([10]),
    Buffer.from('10.11.0-MariaDB-fake\0'),
    head,
    flags,
    Buffer.from('ijklmnopqrst\0'),
    Buffer.from('mysql_native_password\0'),
  ]);
}

const ok = () => Buffer.from([0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
const eof = () => Buffer.from([0xfe, 0x00, 0x00, 0x02, 0x00]);

function accessDenied(user: string): Buffer {
  const code = Buffer.alloc(2);
  code.writeUInt16LE(1045);
  return Buffer.concat([
    Buffer.from([0xff]),
    code,
    Buffer.from(`#28000Access denied for user '${user}'@'localhost' (using password: YES)`),
  ]);
}

function columnDefinition(): Buffer {
  const tail = Buffer.alloc(13);
  tail[0] = 0x0c;
  tail.writeUInt16LE(45, 1);
  tail.writeUInt32LE(1 << 20, 3);
  tail[7] = 0xfd;
  return Buffer.concat(['def', '', '', '', 'answer', ''].map(lengthEncoded).concat(tail));
}

export async function startMysqlFake(options: MysqlFakeOptions = {}): Promise<MysqlFake> {
  const sockets = new Set<Socket>();
  const users: string[] = [];
  const queries: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let loggedIn = false;
    socket.write(packet(0, handshake()));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const length = buffer.readUIntLE(0, 3);
        if (buffer.length < 4 + length) return;
        const payload = buffer.subarray(4, 4 + length);
        buffer = buffer.subarray(4 + length);
        if (!loggedIn) {
          // HandshakeResponse41: capabilities (4), max packet (4), charset (1), 23 reserved, then the user name.
          const user = payload.subarray(32, payload.indexOf(0, 32)).toString('utf8');
          users.push(user);
          if (options.refuseLogins) return void socket.end(packet(2, accessDenied(user)));
          loggedIn = true;
          socket.write(packet(2, ok()));
        } else if (payload[0] === 0x03) {
          const sql = payload.subarray(1).toString('utf8');
          queries.push(sql);
          const parts = [Buffer.from([1]), columnDefinition(), eof(), lengthEncoded(sql), eof()];
          socket.write(Buffer.concat(parts.map((part, i) => packet(i + 1, part))));
        } else if (payload[0] === 0x01) {
          return void socket.end();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    users,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
