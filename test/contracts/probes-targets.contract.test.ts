// The probe-target policy as every monitor type keeps it: under `deny` no probe reaches loopback, link-local or metadata
// addresses, by literal, by name or through a redirect, and no probe opens a socket except through the guarded layer.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY, type TargetGuard } from '../../src/net/target-guard.js';
import type { ProbeDefinition } from '../../src/probes/probe.js';
import { probeRegistry } from '../../src/probes/registry.js';
import { runProbe } from '../../src/probes/run.js';
import { leakedResources, quietResources } from '../fakes/handles.js';
import { type FakeServer, startWebsiteFake } from '../fakes/http-fakes.js';
import { PROBE_FIXTURES } from './probes-fixtures.js';

/** Long enough that a refusal (at once) is plainly not a timeout. */
const TIMEOUT_MS = 3000;
const REFUSED_WITHIN_MS = 1000;

/** A TCP listener and a UDP socket on one port of 127.0.0.1 that count whatever reaches them. */
interface Recorder {
  port: number;
  arrivals(): number;
  close(): Promise<void>;
}

async function startRecorder(): Promise<Recorder> {
  let arrivals = 0;
  for (;;) {
    const tcp: Server = createServer((socket) => {
      arrivals++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    const udp: UdpSocket = createSocket('udp4');
    udp.on('message', () => arrivals++);
    const bound = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    const close = async () => {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      if (bound) await new Promise<void>((resolve) => udp.close(() => resolve()));
    };
    if (bound) return { port, arrivals: () => arrivals, close };
    // The UDP port of that number was taken: try another.
    await close();
  }
}

const probed = Object.entries(probeRegistry).filter(
  ([, definition]) => (definition as ProbeDefinition).probe !== null,
) as [string, ProbeDefinition][];

/** Hosts that all reach the recorder (or a metadata service), and what their refusal names. */
const REFUSED_HOSTS: [host: string, refusal: RegExp][] = [
  [
    '127.0.0.1',
    /^refused: 127\.0\.0\.1 is a loopback address; this organization's probes may reach public addresses only \(WARDEN_PROBE_PRIVATE_TARGETS/,
  ],
  ['localhost', /^refused: (127\.0\.0\.1|::1) is a loopback address;/],
  ['[::ffff:127.0.0.1]', /^refused: \S+ is a loopback address \(127\.0\.0\.1, IPv4-mapped\);/],
  ['169.254.169.254', /^refused: 169\.254\.169\.254 is a cloud metadata address;/],
];

describe('the probe-target policy of every monitor type', () => {
  let recorder: Recorder;
  beforeAll(async () => {
    recorder = await startRecorder();
    for (const [type] of probed) await PROBE_FIXTURES[type]?.warmUp?.();
  });
  afterAll(() => recorder.close());

  for (const [type, definition] of probed) {
    const fixture = PROBE_FIXTURES[type];
    describe(type, () => {
      if (!fixture)
        return void it('has a fixture', () =>
          expect.fail(`add a fixture for ${type} to test/contracts/probes-fixtures.ts`));

      it('reaches a loopback server when any target is allowed (what the refusals below are measured against)', async () => {
        const before = recorder.arrivals();
        await runProbe(definition, fixture.example({ host: '127.0.0.1', port: recorder.port }), {
          timeoutMs: 300,
          guard: ANY_TARGET,
        });
        expect(recorder.arrivals()).toBeGreaterThan(before);
      });

      for (const [host, refusal] of REFUSED_HOSTS) {
        it(`refuses ${host} at once under deny, sending nothing and reading nothing`, async () => {
          const before = recorder.arrivals();
          const open = await quietResources();
          const started = performance.now();
          const result = await runProbe(definition, fixture.example({ host, port: recorder.port }), {
            timeoutMs: TIMEOUT_MS,
            guard: PUBLIC_TARGETS_ONLY,
          });
          expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS);
          expect(result.ok).toBe(false);
          expect(result.error).toMatch(refusal);
          // Nothing from the target: at most the configured target itself, as minecraft-java names it.
          expect(Object.keys(result.data ?? {}).filter((key) => key !== 'target')).toEqual([]);
          expect(recorder.arrivals()).toBe(before);
          expect(await leakedResources(open)).toEqual({});
        });
      }
    });
  }
});

describe('an http redirect under deny', () => {
  /** A test-only guard, built by the test and nowhere else, that treats 127.0.0.2 as a public address. */
  const publicLoopback2: TargetGuard = {
    restricted: true,
    refusal: (address) => (address === '127.0.0.2' ? undefined : PUBLIC_TARGETS_ONLY.refusal(address)),
  };
  let outside: FakeServer;
  let inside: FakeServer;
  beforeAll(async () => {
    outside = await startWebsiteFake(undefined, '127.0.0.2');
    inside = await startWebsiteFake();
  });
  afterAll(async () => {
    await outside.close();
    await inside.close();
  });
  const check = (url: string) =>
    runProbe(
      probeRegistry.http as unknown as ProbeDefinition,
      { url, maxRedirects: 5, jsonPath: 'headers' },
      { timeoutMs: TIMEOUT_MS, guard: publicLoopback2 },
    );

  it('follows redirects between allowed addresses', async () => {
    const result = await runProbe(
      probeRegistry.http as unknown as ProbeDefinition,
      { url: `${outside.url}/redirect/2`, maxRedirects: 5 },
      { timeoutMs: TIMEOUT_MS, guard: publicLoopback2 },
    );
    expect(result).toMatchObject({ ok: true, data: { redirects: 2 } });
  });

  it('is refused at the hop that leads to a private address, which never sees a request', async () => {
    const seen = inside.requests.length;
    const result = await check(`${outside.url}/moved-to/${inside.port}`);
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect(outside.requests.at(-1)?.path).toBe(`/moved-to/${inside.port}`);
    expect(inside.requests.length).toBe(seen);
  });
});

/** What a probe file may take from the modules that open sockets or look names up: types, and these values. */
const SOCKET_MODULES: Record<string, readonly string[]> = {
  'node:net': ['isIP', 'isIPv4', 'isIPv6'],
  'node:dgram': [],
  'node:http': [],
  'node:https': [],
  'node:tls': [],
  'node:http2': [],
  'node:dns': [],
  // A Resolver asks DNS servers only: dns checks its resolver's address, minecraft-java asks the system's.
  'node:dns/promises': ['Resolver'],
  ws: [],
  undici: [],
};
/** The guarded layer: the only files that open sockets. */
const LAYER = new Set(['socket-exchange.ts', 'http-get.ts', 'target-guard.ts', 'address-ranges.ts']);

describe('the guarded socket layer', () => {
  const dir = join(import.meta.dirname, '../../src/probes');
  const files = readdirSync(dir).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !LAYER.has(name),
  );

  it.each(files)('%s opens no socket and looks no name up but through socket-exchange.ts and http-get.ts', (name) => {
    const source = readFileSync(join(dir, name), 'utf8');
    const offending: string[] = [];
    for (const match of source.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)';/gms)) {
      const [, typeOnly, clause = '', module = ''] = match;
      const allowed = SOCKET_MODULES[module];
      if (allowed === undefined || typeOnly) continue;
      const named = /\{([^}]*)\}/s.exec(clause)?.[1] ?? '';
      const defaultOrNamespace = clause
        .replace(/\{[^}]*\}/s, '')
        .replace(/,/g, '')
        .trim();
      if (defaultOrNamespace) offending.push(`${defaultOrNamespace} from ${module}`);
      for (const part of named
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        if (part.startsWith('type ')) continue;
        const imported = part.split(/\s+as\s+/)[0] ?? part;
        if (!allowed.includes(imported)) offending.push(`${imported} from ${module}`);
      }
    }
    if (/\bfetch\(/.test(source)) offending.push('fetch()');
    expect(offending).toEqual([]);
  });
});
