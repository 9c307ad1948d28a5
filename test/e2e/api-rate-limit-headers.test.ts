// Every authenticated answer of the organization API carries RateLimit-Limit, -Remaining and -Reset on a real server
// (node:http, whose light Response once dropped headers set on error answers): API key or session, success or error,
// and in cluster mode with the count shared by two processes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../accounts.js';
import { clusterAvailable, REDIS_PREFIX_SETTING, REDIS_URL } from '../cluster-harness.js';
import { testContext } from '../seed.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: 127.0.0.1, port: 25565 } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: Lobby, monitor: lobby }]
`;

type Answer = { status: number; limit: string | null; remaining: string | null; reset: string | null };

async function call(
  base: string,
  method: string,
  path: string,
  auth: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  await res.arrayBuffer();
  return {
    status: res.status,
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
  };
}

// The headers do not depend on the store: one dialect here, PostgreSQL in the cluster case below.
const sqlite = dialects.find((d) => d.name === 'sqlite');
for (const dialect of sqlite ? [sqlite] : []) {
  describe.skipIf(!dialect.available)(`RateLimit headers on a real server on ${dialect.name}`, () => {
    let h: SeededWarden;
    beforeAll(async () => {
      h = await startSeededWarden(dialect, YAML);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('carries the three headers on every authenticated answer, with an API key or a session, success or error', async () => {
      const user = await signedInUser({ ...testContext(h.opened.store), clock: { now: () => Date.now() } }, [
        { organizationId: h.organizationId, role: 'owner' },
      ]);
      const principals = {
        key: { authorization: `Bearer ${h.writeKey}` },
        session: { cookie: user.cookie, origin: h.url },
      };
      const doc = (await (await fetch(`${h.url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
      };
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(
            ([method, op]) =>
              op.security?.some((s) => 'apiKey' in s) && !(method === 'delete' && path === '/api/v1/organization'),
          )
          .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'no-such-object') })),
      );
      expect(operations.length).toBeGreaterThanOrEqual(35);
      const without: string[] = [];
      const statuses = new Set<number>();
      for (const [name, auth] of Object.entries(principals)) {
        const remaining: number[] = [];
        const record = (what: string, answer: Answer) => {
          statuses.add(answer.status);
          if (answer.limit !== '600' || answer.remaining === null || answer.reset === null)
            without.push(`${what} as ${name}: ${answer.status}`);
          else remaining.push(Number(answer.remaining));
        };
        for (const op of operations) {
          // Writes go with a body that is not JSON too: the 400 comes from the app's error handler.
          for (const body of op.method === 'GET' ? [undefined] : ['{}', 'not json'])
            record(`${op.method} ${op.path}`, await call(h.url, op.method, op.path, auth, body));
        }
        // A real object: 201 on create, 204 on delete.
        const created = await call(
          h.url,
          'POST',
          '/api/v1/monitors',
          auth,
          JSON.stringify({ key: `m-${name}`, name: 'M', type: 'tcp', config: { host: 'example.com', port: 1 } }),
        );
        record('POST /api/v1/monitors', created);
        const list = (await (await fetch(`${h.url}/api/v1/monitors`, { headers: auth })).json()) as {
          monitors: { id: string; key: string }[];
        };
        const id = list.monitors.find((m) => m.key === `m-${name}`)?.id;
        record('DELETE /api/v1/monitors/{id}', await call(h.url, 'DELETE', `/api/v1/monitors/${id}`, auth));
        // Each principal has its own budget, counted down by every answer.
        expect(remaining.every((n, i) => i === 0 || n < (remaining[i - 1] as number))).toBe(true);
      }
      expect(without).toEqual([]);
      expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 204, 400, 404]));
    });
  });
}

describe.skipIf(!clusterAvailable)('RateLimit headers in cluster mode', () => {
  let h: SeededWarden;
  const postgres = dialects.find((d) => d.name === 'postgres');
  const cluster = {
    REDIS_URL,
    [REDIS_PREFIX_SETTING]: `test-${randomBytes(6).toString('hex')}`,
    WARDEN_API_RATE_LIMIT: '50',
  };
  beforeAll(async () => {
    if (postgres) h = await startSeededWarden(postgres, YAML, cluster);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts down the shared budget on the answers of both processes, errors included', async () => {
    const other = (await h.another(cluster)).url.replace('localhost', '127.0.0.1');
    const auth = { authorization: `Bearer ${h.readKey}` };
    const answers = [
      await call(h.url, 'GET', '/api/v1/monitors', auth),
      await call(other, 'GET', '/api/v1/monitors', auth),
      await call(h.url, 'GET', '/api/v1/monitors/no-such-object', auth),
      await call(other, 'GET', '/api/v1/pages/no-such-page', auth),
    ];
    expect(answers.map((a) => [a.status, a.limit, a.remaining])).toEqual([
      [200, '50', '49'],
      [200, '50', '48'],
      [404, '50', '47'],
      [404, '50', '46'],
    ]);
    for (const answer of answers) expect(Number(answer.reset)).toBeGreaterThanOrEqual(1);
  });
});
