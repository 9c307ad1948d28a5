import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../test/api-app.js';
import { apiOperations, type Operation, organizationObjects, VALID_BODIES } from '../../../test/api-objects.js';
import { dialects } from '../../../test/store-dialects.js';
import { generateSecret } from '../../domain/tokens.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`API keys, scopes and organizations on ${dialect.name}`, () => {
    let h: ApiHarness;
    let operations: Operation[];
    /** Path parameters naming organization B's objects. */
    let theirs: (template: string) => string;

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      operations = await apiOperations(h);
      theirs = (await organizationObjects(h, h.b, 'beta')).paths;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('documents the organization API: every /api/v1 route but the public status', () => {
      expect(operations.length).toBeGreaterThanOrEqual(35);
      expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
        expect.arrayContaining([
          'GET /api/v1/monitors',
          'GET /api/v1/monitors/{id}/history',
          'POST /api/v1/incidents/{id}/updates',
          'DELETE /api/v1/api-keys/{id}',
        ]),
      );
    });

    it('answers 401 with WWW-Authenticate: Bearer on every route without a key', async () => {
      for (const op of operations) {
        const res = await h.call(op.method, theirs(op.path), { key: null });
        expect(res.status, `${op.method} ${op.path}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="warden"');
        expect(res.headers.get('content-type')).toBe('application/problem+json');
      }
    });

    it.each([
      ['a malformed key', 'Bearer not-a-key'],
      ['an unknown key', `Bearer ${generateSecret('apiKey')}`],
      ['a relay token', `Bearer ${generateSecret('relayToken')}`],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['an empty bearer', 'Bearer '],
    ])('answers 401 invalid_token for %s', async (_what, authorization) => {
      const res = await h.call('GET', '/api/v1/monitors', { key: null, headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="warden"/);
      const problem = await res.json();
      expect(problem).toMatchObject({
        type: 'https://warden.dev/problems/unauthorized',
        status: 401,
        title: 'Unauthorized',
      });
    });

    it('accepts the scheme name in any case', async () => {
      expect(
        (await h.call('GET', '/api/v1/monitors', { key: null, headers: { authorization: `bearer ${h.a.readKey}` } }))
          .status,
      ).toBe(200);
    });

    it('answers 403 to a read key on every write route and every admin read, and lets it read the rest', async () => {
      for (const op of operations) {
        const res = await h.call(op.method, theirs(op.path), {
          key: h.a.readKey,
          body: VALID_BODIES[`${op.method} ${op.path}`] ?? {},
        });
        if (op.write || op.role !== 'viewer') {
          expect(res.status, `${op.method} ${op.path}`).toBe(403);
          expect((await res.json()).type).toBe('https://warden.dev/problems/forbidden');
          expect(res.headers.get('ratelimit-limit')).toBe('600');
        } else expect(res.status, `${op.method} ${op.path}`).not.toBe(403);
      }
    });

    it("answers 404 for another organization's objects on every route that names one, exactly as for objects that do not exist", async () => {
      const ghost = (template: string) =>
        template
          .replace('{slug}', 'no-such-page')
          .replace('{id}', 'xyz_nosuchobject')
          .replace('{key}', 'no-such-key')
          .replace('{userId}', 'usr_nosuchuser')
          .replace('{name}', 'logo');
      for (const op of operations.filter((o) => o.path.includes('{'))) {
        const body = VALID_BODIES[`${op.method} ${op.path}`] ?? {};
        const res = await h.call(op.method, theirs(op.path), { key: h.a.writeKey, body });
        expect(res.status, `${op.method} ${theirs(op.path)}`).toBe(404);
        const absent = await h.call(op.method, ghost(op.path), { key: h.a.writeKey, body });
        expect(absent.status).toBe(404);
        // Same answer but for the identifiers the caller sent.
        const normalize = (text: string, path: string) => {
          const ids = path.split('/').filter((part) => !op.path.split('/').includes(part));
          return ids.reduce((out, id, i) => out.replaceAll(id, `<${i}>`), text);
        };
        expect(normalize(await res.text(), theirs(op.path))).toBe(normalize(await absent.text(), ghost(op.path)));
      }
      // Organization B still has everything.
      const { monitors } = await (await h.call('GET', '/api/v1/monitors', { key: h.b.readKey })).json();
      expect(monitors).toHaveLength(1);
    });

    it('records the last use of a key at most once a minute', async () => {
      const lastUsed = async () => (await h.store.apiKeys.list(h.b.id)).find((k) => k.scope === 'read')?.lastUsedAt;
      const start = h.clock.now();
      await h.call('GET', '/api/v1/monitors', { key: h.b.readKey });
      const first = await lastUsed();
      expect(first).toBeGreaterThanOrEqual(start);
      h.clock.advance(30_000);
      await h.call('GET', '/api/v1/monitors', { key: h.b.readKey });
      expect(await lastUsed()).toBe(first);
      h.clock.advance(31_000);
      await h.call('GET', '/api/v1/monitors', { key: h.b.readKey });
      expect(await lastUsed()).toBe(h.clock.now());
    });
  });
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the rate limit on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect, { rateLimitPerMinute: 3 });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers 429 with Retry-After and the RateLimit headers once a key spends its budget, per key, until the window resets', async () => {
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await h.call('GET', '/api/v1/monitors', { key: h.a.readKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBe('3');
        expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
        expect(res.headers.get('ratelimit-reset')).toBe('60');
        remaining.push(res.headers.get('ratelimit-remaining'));
      }
      expect(remaining).toEqual(['2', '1', '0']);
      h.clock.advance(20_000);
      const refused = await h.call('GET', '/api/v1/monitors', { key: h.a.readKey });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('40');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('ratelimit-reset')).toBe('40');
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(await refused.json()).toMatchObject({ type: 'https://warden.dev/problems/rate-limited', status: 429 });
      // Another key of the same organization has its own budget.
      expect((await h.call('GET', '/api/v1/monitors', { key: h.a.writeKey })).status).toBe(200);
      h.clock.advance(40_000);
      expect((await h.call('GET', '/api/v1/monitors', { key: h.a.readKey })).status).toBe(200);
    });

    it('counts errors too, and carries the headers on them', async () => {
      const res = await h.call('GET', '/api/v1/monitors/mon_unknown', { key: h.b.readKey });
      expect(res.status).toBe(404);
      expect(res.headers.get('ratelimit-remaining')).toBe('2');
    });
  });
}
