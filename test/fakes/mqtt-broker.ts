// A fake MQTT 3.1.1 broker, byte for byte: it reads CONNECT, answers CONNACK with a return code (4: bad user name or
// password), answers SUBSCRIBE with SUBACK and one PUBLISH on the topic (at QoS 0, 1 or 2, retained or not), whose
// payload may be the password it got, and counts DISCONNECTs.
import { createServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Certificate } from './http-fakes.js';

export interface MqttFakeOptions {
  /** CONNACK's return code: 0 accepted, 4 bad user name or password, 5 not authorized. */
  returnCode?: number;
  /** The payload published on a subscribed topic; 'password' publishes the password of CONNECT. */
  publish?: string | 'password';
  /** SUBACK's granted QoS; 0x80 refuses the subscription. */
  granted?: number;
  /** Speak MQTT over TLS with this certificate. */
  certificate?: Certificate;
  /** The QoS of the PUBLISH (0 unless told; 1 and 2 carry a packet identifier), and whether it is retained. */
  publishQos?: 0 | 1 | 2;
  retain?: boolean;
}

export interface MqttFake {
  port: number;
  /** The user name and client id of each CONNECT. */
  connects: { clientId: string; username?: string }[];
  /** DISCONNECT packets received. */
  disconnects: number;
  close(): Promise<void>;
}

function remainingLength(length: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

const utf8 = (text: string) => {
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
};

/** Reads the length-prefixed strings of CONNECT's payload. */
function parseConnect(body: Buffer): { clientId: string; username?: string; password?: string } {
  let at = 2 + body.readUInt16BE(0) + 1;
  const flags = body[at] as number;
  at += 3;
  const read = () => {
    const length = body.readUInt16BE(at);
    const text = body.toString('utf8', at + 2, at + 2 + length);
    at += 2 + length;
    return text;
  };
  const clientId = read();
  if (flags & 0x04) {
    read();
    read();
  }
  const username = flags & 0x80 ? read() : undefined;
  const password = flags & 0x40 ? read() : undefined;
  return { clientId, username, password };
}

export async function startMqttFake(options: MqttFakeOptions = {}): Promise<MqttFake> {
  const sockets = new Set<Socket>();
  const connects: MqttFake['connects'] = [];
  const fake = { disconnects: 0 };
  const handle = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let password: string | undefined;
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2) {
        let length = 0;
        let multiplier = 1;
        let at = 1;
        for (;;) {
          if (at >= buffer.length) return;
          const byte = buffer[at++] as number;
          length += (byte & 0x7f) * multiplier;
          multiplier *= 128;
          if (!(byte & 0x80)) break;
        }
        if (buffer.length < at + length) return;
        const type = (buffer[0] as number) >> 4;
        const body = buffer.subarray(at, at + length);
        buffer = buffer.subarray(at + length);
        if (type === 1) {
          const connect = parseConnect(body);
          password = connect.password;
          connects.push({ clientId: connect.clientId, username: connect.username });
          socket.write(Buffer.from([0x20, 0x02, 0x00, options.returnCode ?? 0]));
          if (options.returnCode) socket.end();
        } else if (type === 8) {
          const topic = body.toString('utf8', 4, 4 + body.readUInt16BE(2));
          socket.write(Buffer.from([0x90, 0x03, body[0] as number, body[1] as number, options.granted ?? 0]));
          const payload = Buffer.from(options.publish === 'password' ? (password ?? '') : (options.publish ?? 'hello'));
          const qos = options.publishQos ?? 0;
          const publish = Buffer.concat([utf8(topic), ...(qos > 0 ? [Buffer.from([0x12, 0x34])] : []), payload]);
          const first = 0x30 | (qos << 1) | (options.retain ? 1 : 0);
          socket.write(Buffer.concat([Buffer.from([first]), remainingLength(publish.length), publish]));
        } else if (type === 14) {
          fake.disconnects++;
          socket.end();
        }
      }
    });
  };
  const server = options.certificate ? createTlsServer(options.certificate, handle) : createServer(handle);
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connects,
    get disconnects() {
      return fake.disconnects;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
