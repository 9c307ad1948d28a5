// The grpc monitor against a real gRPC server (@grpc/grpc-js with grpc-health-check), in plain text and over TLS, and
// against servers that are not gRPC, flood or say nothing.
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { type GrpcFake, startGrpcServer } from '../../test/fakes/grpc-server.js';
import { createSelfSignedCertificate, startWebsiteFake } from '../../test/fakes/http-fakes.js';
import { checkAgainst, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { decodeResponse, encodeRequest, frame, grpc } from './grpc.js';

const fakes: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
async function serving(...args: Parameters<typeof startGrpcServer>): Promise<GrpcFake> {
  const fake = await startGrpcServer(...args);
  fakes.push(fake);
  return fake;
}

describe('grpc probe', () => {
  it('is up when the server as a whole is SERVING', async () => {
    const server = await startGrpcServer({ '': 'SERVING' });
    const { result } = await checkAgainst(
      { close: server.close },
      grpc,
      { host: '127.0.0.1', port: server.port },
      3000,
    );
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^SERVING in \d+ ms$/),
      data: { servingStatus: 'SERVING' },
    });
  });

  it('asks about the named service, and follows its status', async () => {
    const server = await serving({ '': 'SERVING', 'shop.Orders': 'SERVING' });
    const config = { host: '127.0.0.1', port: server.port, service: 'shop.Orders' };
    expect(await probeDirectly(grpc, config, 3000)).toMatchObject({
      ok: true,
      data: { servingStatus: 'SERVING', service: 'shop.Orders' },
    });
    server.health.setStatus('shop.Orders', 'NOT_SERVING');
    expect(await probeDirectly(grpc, config, 3000)).toEqual({
      ok: false,
      error: 'the service "shop.Orders" is NOT_SERVING',
      data: { servingStatus: 'NOT_SERVING', service: 'shop.Orders' },
    });
    expect(await probeDirectly(grpc, { ...config, service: 'shop.Unknown' }, 3000)).toEqual({
      ok: false,
      error:
        'the server does not know the service "shop.Unknown" (NOT_FOUND: Health status unknown for service shop.Unknown)',
    });
  });

  it('says when the server has no health service', async () => {
    const server = await serving({}, undefined, false);
    expect(await probeDirectly(grpc, { host: '127.0.0.1', port: server.port }, 3000)).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^the server does not implement the gRPC health-checking protocol \(\/grpc\.health\.v1\.Health\/Check: UNIMPLEMENTED/,
      ),
    });
  });

  it('speaks TLS (h2), refusing a self-signed certificate unless told to ignore it', async () => {
    const server = await serving({ '': 'SERVING' }, await createSelfSignedCertificate(30));
    expect(await probeDirectly(grpc, { host: '127.0.0.1', port: server.port, tls: true }, 3000)).toEqual({
      ok: false,
      error: 'the TLS certificate is self-signed (set ignoreTls to accept it)',
    });
    expect(
      await probeDirectly(grpc, { host: '127.0.0.1', port: server.port, tls: true, ignoreTls: true }, 3000),
    ).toMatchObject({ ok: true });
  });

  it('says what answered when it is no gRPC server: HTTP/1, or HTTP/2 without gRPC', async () => {
    const site = await startWebsiteFake();
    fakes.push(site);
    expect(await probeDirectly(grpc, { host: '127.0.0.1', port: site.port }, 3000)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the server does not speak HTTP\/2 here/),
    });
    const web2: Http2Server = createHttp2Server((_req, res) => res.writeHead(404).end('not found'));
    await new Promise<void>((resolve) => web2.listen(0, '127.0.0.1', resolve));
    fakes.push({ close: () => new Promise<void>((resolve) => web2.close(() => resolve())) });
    expect(await probeDirectly(grpc, { host: '127.0.0.1', port: (web2.address() as AddressInfo).port }, 3000)).toEqual({
      ok: false,
      error: 'unexpected response: HTTP 404 instead of a gRPC answer (is this a gRPC port?)',
    });
  });

  it('says when the server resets the call without answering', async () => {
    const resetting: Http2Server = createHttp2Server();
    resetting.on('stream', (stream) => stream.close(0));
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    fakes.push({ close: () => new Promise<void>((resolve) => resetting.close(() => resolve())) });
    expect(
      await probeDirectly(grpc, { host: '127.0.0.1', port: (resetting.address() as AddressInfo).port }, 3000),
    ).toEqual({
      ok: false,
      error: 'the server ended the call without an answer (HTTP/2 code 0)',
    });
  });

  it('stops reading an answer larger than 64 KiB', async () => {
    const flood: Http2Server = createHttp2Server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      const chunk = Buffer.alloc(16 * 1024);
      const write = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', write);
      write();
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    const { result } = await checkAgainst(
      { close: () => new Promise<void>((resolve) => flood.close(() => resolve())) },
      grpc,
      { host: '127.0.0.1', port: (flood.address() as AddressInfo).port },
      3000,
    );
    expect(result).toEqual({ ok: false, error: 'unexpected response: more than 64 KiB' });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, grpc, { host: '127.0.0.1', port: hole.port }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('refuses a private target under deny, in plain text or TLS', async () => {
    const server = await serving({ '': 'SERVING' });
    for (const tls of [false, true]) {
      const result = await runThrough(grpc, { host: '127.0.0.1', port: server.port, tls }, 1500, PUBLIC_TARGETS_ONLY);
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
      });
    }
  });

  it('encodes and decodes the health messages as protobuf does', () => {
    expect(frame(encodeRequest('')).toString('hex')).toBe('0000000000');
    expect(frame(encodeRequest('shop.Orders')).toString('hex')).toBe(
      `000000000d0a0b${Buffer.from('shop.Orders').toString('hex')}`,
    );
    expect(decodeResponse(Buffer.from([0x08, 0x01]))).toBe(1);
    expect(decodeResponse(Buffer.alloc(0))).toBe(0);
    // An unknown length-delimited field is skipped; a truncated one is no message.
    expect(decodeResponse(Buffer.from([0x12, 0x01, 0x41, 0x08, 0x02]))).toBe(2);
    expect(decodeResponse(Buffer.from([0x12, 0x05, 0x41]))).toBeUndefined();
  });
});
