// The probe-target policy as every notification channel keeps it: under `deny` no channel of the registry reaches a
// loopback, link-local or metadata address — by literal or by name, over HTTP or SMTP — nor follows a redirect there,
// and no channel file opens a connection except through the guarded senders (http-send.ts, sendMail).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY, type TargetGuard } from '../../src/net/target-guard.js';
import type { ChannelDefinition } from '../../src/notify/channels/channel.js';
import { failureOf } from '../../src/notify/channels/outcome.js';
import { CHANNELS, type ChannelType } from '../../src/notify/channels/registry.js';
import { leakedResources, quietResources } from '../fakes/handles.js';
import { BARE_EVENT, sendContext } from '../fakes/notify-receivers.js';

/** Long enough that a refusal (at once) is plainly not a timeout. */
const TIMEOUT_MS = 3000;
const REFUSED_WITHIN_MS = 1000;

/** A channel's config aimed at a host (as a URL writes it: IPv6 in brackets) and port. */
type Fixture = (target: { host: string; port: number }) => Record<string, unknown>;

const origin = ({ host, port }: { host: string; port: number }) => `http://${host}:${port}`;
const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

/** One per channel type: a type missing here fails to compile. */
const FIXTURES = {
  webhook: (t) => ({ url: `${origin(t)}/hooks/warden`, secret: SECRET }),
  discord: (t) => ({ url: `${origin(t)}/api/webhooks/1/tok` }),
  slack: (t) => ({ url: `${origin(t)}/services/T0/B0/xyz` }),
  teams: (t) => ({ url: `${origin(t)}/workflows/abc/triggers/manual/paths/invoke` }),
  telegram: (t) => ({
    botToken: '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    chatId: -1001234567890,
    apiBaseUrl: origin(t),
  }),
  ntfy: (t) => ({ url: `${origin(t)}/warden-alerts` }),
  email: (t) => ({
    to: 'ops@acme.test',
    from: 'warden@acme.test',
    host: t.host.replace(/^\[(.*)\]$/, '$1'),
    port: t.port,
    secure: 'none',
  }),
  pushover: (t) => ({
    token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    user: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
    apiBaseUrl: origin(t),
  }),
  gotify: (t) => ({ url: origin(t), token: 'AbCdEf1234567.8' }),
  matrix: (t) => ({ homeserverUrl: origin(t), accessToken: 'syt_d2FyZGVu_abc', roomId: '!ops:example.org' }),
  pagerduty: (t) => ({ routingKey: 'R0123456789abcdef0123456789abcde', apiUrl: origin(t) }),
  opsgenie: (t) => ({ apiKey: 'eb243592-faa2-4ba2-a551-1afdf565c889', apiUrl: origin(t) }),
  twilio: (t) => ({
    accountSid: 'AC0123456789abcdef0123456789abcdef',
    authToken: 'f00dfeed',
    from: '+14155550100',
    to: '+14155550199',
    apiUrl: origin(t),
  }),
  mattermost: (t) => ({ url: `${origin(t)}/hooks/xfa1k3y` }),
  rocketchat: (t) => ({ url: `${origin(t)}/hooks/6Fz9kQ/xT0k3nS3cr3t` }),
  googlechat: (t) => ({ url: `${origin(t)}/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D` }),
} satisfies Record<ChannelType, Fixture>;

/** HTTP-speaking channels, the ones a redirect could lead astray: all but those that speak SMTP. */
const NOT_HTTP = new Set<ChannelType>(['email']);
const HTTP_TYPES = new Set((Object.keys(CHANNELS) as ChannelType[]).filter((type) => !NOT_HTTP.has(type)));

/** Hosts that all reach the recorder (or a metadata service), and what their refusal names. */
const REFUSED_HOSTS: [host: string, refusal: RegExp][] = [
  [
    '127.0.0.1',
    /^refused by policy: 127\.0\.0\.1 is a loopback address; this organization may reach public addresses only \(WARDEN_PROBE_PRIVATE_TARGETS/,
  ],
  ['localhost', /^refused by policy: (127\.0\.0\.1|::1) is a loopback address;/],
  ['[::ffff:127.0.0.1]', /^refused by policy: \S+ is a loopback address \(127\.0\.0\.1, IPv4-mapped\);/],
  ['169.254.169.254', /^refused by policy: 169\.254\.169\.254 is a cloud metadata address;/],
];

/** A TCP listener on 127.0.0.1 that counts the connections reaching it and closes each. */
async function startRecorder(): Promise<{ port: number; arrivals(): number; close(): Promise<void> }> {
  let arrivals = 0;
  const server: Server = createServer((socket) => {
    arrivals++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    arrivals: () => arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const registry = Object.entries(CHANNELS) as unknown as [ChannelType, ChannelDefinition][];
const send = (
  type: ChannelType,
  definition: ChannelDefinition,
  target: { host: string; port: number },
  guard: TargetGuard,
) => definition.send(BARE_EVENT, definition.config.parse(FIXTURES[type](target)), sendContext(TIMEOUT_MS, guard));

describe('the target policy of every notification channel', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  beforeAll(async () => {
    recorder = await startRecorder();
  });
  afterAll(() => recorder.close());

  it('has a fixture for every channel of the registry', () => {
    expect(registry.map(([type]) => type).filter((type) => !(type in FIXTURES))).toEqual([]);
  });

  for (const [type, definition] of registry) {
    describe(type, () => {
      it('reaches a loopback listener when any target is allowed (what the refusals below are measured against)', async () => {
        const before = recorder.arrivals();
        await send(type, definition, { host: '127.0.0.1', port: recorder.port }, ANY_TARGET);
        expect(recorder.arrivals()).toBeGreaterThan(before);
      });

      for (const [host, refusal] of REFUSED_HOSTS) {
        it(`refuses ${host} at once under deny: dead, classified, no answer, no connection`, async () => {
          const before = recorder.arrivals();
          const open = await quietResources();
          const started = performance.now();
          const outcome = await send(type, definition, { host, port: recorder.port }, PUBLIC_TARGETS_ONLY);
          expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS);
          expect(outcome).toEqual({ kind: 'dead', status: null, error: expect.stringMatching(refusal) });
          expect(
            failureOf({
              status: 'dead',
              lastError: outcome.kind === 'sent' ? null : outcome.error,
              lastStatus: outcome.status,
            }),
          ).toBe('refused');
          expect(recorder.arrivals()).toBe(before);
          expect(await leakedResources(open)).toEqual({});
        });
      }
    });
  }
});

describe('a redirect from an allowed receiver', () => {
  /** A test-only guard, built here and nowhere else, that treats 127.0.0.2 as a public address. */
  const publicLoopback2: TargetGuard = {
    restricted: true,
    refusal: (address) => (address === '127.0.0.2' ? undefined : PUBLIC_TARGETS_ONLY.refusal(address)),
  };
  let inside: Awaited<ReturnType<typeof startRecorder>>;
  let outside: HttpServer;
  let outsidePort = 0;
  let redirected = 0;
  beforeAll(async () => {
    inside = await startRecorder();
    outside = createHttpServer((req, res) => {
      redirected++;
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.1:${inside.port}/stolen` }).end('moved');
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.2', resolve));
    outsidePort = (outside.address() as { port: number }).port;
  });
  afterAll(async () => {
    outside.closeAllConnections();
    await new Promise<void>((resolve) => outside.close(() => resolve()));
    await inside.close();
  });

  for (const [type, definition] of registry.filter(([type]) => HTTP_TYPES.has(type))) {
    it(`${type}: is not followed to a private address, which never sees a connection`, async () => {
      const [seen, before] = [redirected, inside.arrivals()];
      const outcome = await send(type, definition, { host: '127.0.0.2', port: outsidePort }, publicLoopback2);
      expect(redirected).toBe(seen + 1);
      expect(outcome).toMatchObject({ kind: 'dead', status: 307, error: 'HTTP 307' });
      expect(inside.arrivals()).toBe(before);
    });
  }
});

/** What a channel file may take from the modules that open connections or look names up: types, and these values. */
const CONNECTING_MODULES: Record<string, readonly string[]> = {
  'node:net': ['isIP', 'isIPv4', 'isIPv6'],
  'node:dgram': [],
  'node:http': [],
  'node:https': [],
  'node:http2': [],
  'node:tls': [],
  'node:dns': [],
  'node:dns/promises': [],
  ws: [],
  undici: [],
  nodemailer: [],
  '../../runtime/launcher.js': [],
  '../../probes/http-get.js': [],
  '../../probes/socket-exchange.js': [],
  // The guard comes from the send context: a channel never picks one.
  '../../probes/target-guard.js': ['TARGET_REFUSED'],
  '../smtp-connect.js': [],
};

/** sendMail, the SMTP half of the guarded senders, lives beside the email channel: the one import it needs for it. */
const SENDERS: Record<string, readonly string[]> = { 'email.ts': ['smtpTransport from ../smtp-connect.js'] };

describe('the guarded senders', () => {
  const dir = join(import.meta.dirname, '../../src/notify/channels');
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  it.each(files)('%s connects only through postRequest and sendMail, under the context’s guard', (name) => {
    const source = readFileSync(join(dir, name), 'utf8');
    const offending: string[] = [];
    for (const match of source.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)';/gms)) {
      const [, typeOnly, clause = '', module = ''] = match;
      const allowed = CONNECTING_MODULES[module];
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
    if (/\bimport\(/.test(source) || /\bimportPackage\b/.test(source)) offending.push('a dynamic import');
    if (/\brequire\(/.test(source)) offending.push('require()');
    expect(offending.filter((found) => !SENDERS[name]?.includes(found))).toEqual([]);
  });
});
