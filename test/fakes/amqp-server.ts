// A fake AMQP 0-9-1 server, byte for byte up to the login: it checks the protocol header, sends Connection.Start
// offering PLAIN, reads Start-Ok and refuses the login with Connection.Close 403, quoting the password when asked to.
import { createServer, type Socket } from 'node:net';
import {
  longString,
  methodFrame,
  PROTOCOL_HEADER,
  readFrame,
  shortString,
} from '../../src/probes/codecs/amqp-frames.js';

export interface AmqpFake {
  port: number;
  /** The PLAIN responses received, as "\0user\0password". */
  logins: string[];
  close(): Promise<void>;
}

export async function startAmqpFake(options: { echo?: boolean } = {}): Promise<AmqpFake> {
  const sockets = new Set<Socket>();
  const logins: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let greeted = false;
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!greeted) {
        if (buffer.length < 8) return;
        if (!buffer.subarray(0, 8).equals(PROTOCOL_HEADER)) return void socket.end(PROTOCOL_HEADER);
        greeted = true;
        buffer = buffer.subarray(8);
        const properties = longString(
          Buffer.concat([
            shortString('product'),
            Buffer.from('S'),
            longString(Buffer.from('FakeMQ')),
            shortString('version'),
            Buffer.from('S'),
            longString(Buffer.from('0.1')),
          ]),
        );
        socket.write(
          methodFrame(
            0,
            10,
            10,
            Buffer.from([0, 9]),
            properties,
            longString(Buffer.from('AMQPLAIN PLAIN')),
            longString(Buffer.from('en_US')),
          ),
        );
      }
      const read = readFrame(buffer, 0, 1 << 20);
      if (!read || read.frame === 'other') return;
      buffer = buffer.subarray(read.end);
      const args = read.frame.args;
      // Start-Ok: client properties (a table), the mechanism, then the response.
      let at = 4 + args.readUInt32BE(0);
      at += 1 + (args[at] as number);
      const response = args.subarray(at + 4, at + 4 + args.readUInt32BE(at)).toString('utf8');
      logins.push(response);
      const text = options.echo
        ? `ACCESS_REFUSED - no user with password ${response.split('\0')[2]}`
        : 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN.';
      const code = Buffer.alloc(2);
      code.writeUInt16BE(403);
      socket.write(methodFrame(0, 10, 50, code, shortString(text), Buffer.alloc(4)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
