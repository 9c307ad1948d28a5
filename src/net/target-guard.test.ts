// The probe-target guard: every resolved address checked, the checked one handed to the socket, refusals as errors.
import type { LookupAddress } from 'node:dns';
import { connect, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNetworkError } from './network-error.js';
import {
  ANY_TARGET,
  dialFor,
  guardedLookup,
  isTargetRefused,
  PUBLIC_TARGETS_ONLY,
  type ResolveAll,
  refusedSocket,
  TARGET_REFUSED,
  targetGuard,
} from './target-guard.js';

const answering =
  (...addresses: string[]): ResolveAll =>
  (_hostname, _options, callback) =>
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

type Looked = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function look(resolve: ResolveAll, all: boolean): Promise<Looked> {
  return new Promise((done) =>
    guardedLookup(PUBLIC_TARGETS_ONLY, resolve)('host.example.test', { all }, (error, address, family) =>
      done({ error, address, family }),
    ),
  );
}

describe('targetGuard', () => {
  it('maps the policy to a guard', () => {
    expect(targetGuard('allow')).toBe(ANY_TARGET);
    expect(targetGuard('deny')).toBe(PUBLIC_TARGETS_ONLY);
    expect(ANY_TARGET.refusal('127.0.0.1')).toBeUndefined();
  });

  it('words a refusal with the address, its kind and the setting', () => {
    const refused = PUBLIC_TARGETS_ONLY.refusal('10.0.0.5');
    expect(isTargetRefused(refused)).toBe(true);
    expect(refused?.message).toBe(
      "refused: 10.0.0.5 is a private address; this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)",
    );
    expect(describeNetworkError(refused, 1000)).toBe(refused?.message);
    expect(PUBLIC_TARGETS_ONLY.refusal('93.184.216.34')).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  it('hands back the checked addresses, one or all as asked', async () => {
    expect(await look(answering('93.184.216.34', '2606:2800:220:1::1'), false)).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect(await look(answering('93.184.216.34', '2606:2800:220:1::1'), true)).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      family: undefined,
    });
  });

  it('refuses the name when any one of its addresses is refused, whichever comes first', async () => {
    for (const answer of [answering('93.184.216.34', '10.0.0.1'), answering('::1', '93.184.216.34')]) {
      const { error } = await look(answer, false);
      expect(error?.code).toBe(TARGET_REFUSED);
      expect(error?.message).toMatch(/^refused: (10\.0\.0\.1 is a private|::1 is a loopback) address;/);
    }
  });

  it('passes a failed lookup on, and treats an empty answer as not found', async () => {
    const failing: ResolveAll = (_h, _o, callback) =>
      callback(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }), []);
    expect((await look(failing, false)).error?.code).toBe('ENOTFOUND');
    expect((await look(answering(), false)).error?.code).toBe('ENOTFOUND');
  });
});

describe('dialFor', () => {
  it('leaves everything alone when not restricted', () => {
    expect(dialFor(ANY_TARGET, '127.0.0.1')).toEqual({});
    expect(dialFor(ANY_TARGET, 'localhost')).toEqual({});
  });

  it('checks a literal at once and a name through its lookup', () => {
    expect(dialFor(PUBLIC_TARGETS_ONLY, '1.1.1.1')).toEqual({});
    expect(dialFor(PUBLIC_TARGETS_ONLY, '[::1]')).toMatchObject({ refused: { code: TARGET_REFUSED } });
    expect(dialFor(PUBLIC_TARGETS_ONLY, '169.254.169.254')).toMatchObject({
      refused: { message: expect.stringContaining('a cloud metadata address') },
    });
    expect(typeof (dialFor(PUBLIC_TARGETS_ONLY, 'example.com') as { lookup?: unknown }).lookup).toBe('function');
  });
});

describe('connecting under the guard', () => {
  let server: Server;
  let accepted = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = () => (server.address() as { port: number }).port;

  it('refuses localhost through the lookup before connecting', async () => {
    const socket = connect({ host: 'localhost', port: port(), lookup: guardedLookup(PUBLIC_TARGETS_ONLY) });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => socket.once('error', resolve));
    expect(error.message).toMatch(/^refused: (127\.0\.0\.1|::1) is a loopback address;/);
    expect(accepted).toBe(0);
  });

  it('connects to what the lookup checked when it passes', async () => {
    const lenient = { restricted: true, refusal: () => undefined };
    const socket = connect({ host: 'localhost', port: port(), family: 4, lookup: guardedLookup(lenient) });
    await new Promise((resolve) => socket.once('connect', resolve));
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });

  it('gives a refused literal a socket that fails like a connection error', async () => {
    const refused = PUBLIC_TARGETS_ONLY.refusal('127.0.0.1') as Error;
    const socket = refusedSocket(refused);
    expect(await new Promise((resolve) => socket.once('error', resolve))).toBe(refused);
    expect(socket.destroyed).toBe(true);
  });
});
