// GET /api/v1/monitors for the dashboard: tags, filters, search, sorts and cursor pages; and tags through create, patch and warden.yaml.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { seed } from '../../../../test/seed.js';
import { dialects } from '../../../../test/store-dialects.js';

const keysOf = async (res: Response) => ((await res.json()).monitors as { key: string }[]).map((m) => m.key);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`listing monitors for the dashboard on ${dialect.name}`, () => {
    let h: ApiHarness;
    const list = (query: string, key?: string) =>
      h.call('GET', `/api/v1/monitors${query}`, { key: key ?? h.a.readKey });

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      // A: lobby and panel from its file; three more through the API.
      const create = (body: Record<string, unknown>) =>
        h.call('POST', '/api/v1/monitors', {
          body: { type: 'tcp', config: { host: 'play.example.com', port: 25565 }, ...body },
        });
      expect((await create({ key: 'eu-1', name: 'Europe One', tags: ['eu', 'prod'] })).status).toBe(201);
      expect((await create({ key: 'eu-2', name: 'europe two', tags: ['eu'], enabled: false })).status).toBe(201);
      expect(
        (
          await create({
            key: 'us-1',
            name: 'US One',
            type: 'http',
            config: { url: 'https://us.example.com' },
            tags: ['us', 'prod'],
          })
        ).status,
      ).toBe(201);
      const ids = Object.fromEntries((await h.store.monitors.list(h.a.id)).map((m) => [m.key, m.id]));
      await h.ingest.record({ monitorId: ids['eu-1']!, ok: false, source: 'edge' });
      await h.ingest.record({ monitorId: ids['eu-1']!, ok: false, source: 'edge' });
      await h.ingest.record({ monitorId: ids['us-1']!, ok: true, latencyMs: 300, source: 'edge' });
      await h.ingest.record({ monitorId: ids.lobby!, ok: true, latencyMs: 30, source: 'edge' });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers as before without parameters: every monitor by key, with its tags', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(['monitors']);
      expect(body.monitors.map((m: { key: string }) => m.key)).toEqual(['eu-1', 'eu-2', 'lobby', 'panel', 'us-1']);
      expect(body.monitors[0].tags).toEqual(['eu', 'prod']);
      expect(body.monitors[2].tags).toEqual([]);
    });

    it('filters by state, type, tag, page and relay, and searches name and key in any case', async () => {
      expect(await keysOf(await list('?state=down'))).toEqual(['eu-1']);
      expect(await keysOf(await list('?state=paused'))).toEqual(['eu-2']);
      expect(await keysOf(await list('?type=http'))).toEqual(['us-1']);
      expect(await keysOf(await list('?tag=prod'))).toEqual(['eu-1', 'us-1']);
      expect(await keysOf(await list('?tag=eu&state=up'))).toEqual([]);
      expect(await keysOf(await list('?page=alpha'))).toEqual(['lobby']);
      expect(await keysOf(await list('?relay=basement'))).toEqual(['panel']);
      expect(await keysOf(await list('?q=EUROPE'))).toEqual(['eu-1', 'eu-2']);
      expect(await keysOf(await list('?q=us-'))).toEqual(['us-1']);
    });

    it('sorts by state, latency and the latest change', async () => {
      expect(await keysOf(await list('?sort=state'))).toEqual(['eu-1', 'panel', 'lobby', 'us-1', 'eu-2']);
      expect(await keysOf(await list('?sort=latency&state=up'))).toEqual(['us-1', 'lobby']);
    });

    it('pages with limit and cursor, telling how many match in all', async () => {
      const first = await (await list('?limit=2')).json();
      expect(first).toMatchObject({ total: 5, nextCursor: expect.any(String) });
      expect(first.monitors.map((m: { key: string }) => m.key)).toEqual(['eu-1', 'eu-2']);
      const second = await (await list(`?limit=2&cursor=${first.nextCursor}`)).json();
      expect(second.monitors.map((m: { key: string }) => m.key)).toEqual(['lobby', 'panel']);
      const third = await (await list(`?limit=2&cursor=${second.nextCursor}`)).json();
      expect(third).toMatchObject({ total: 5, nextCursor: null });
      expect(third.monitors.map((m: { key: string }) => m.key)).toEqual(['us-1']);
    });

    it('never shows another organization’s monitors, whatever the filter', async () => {
      expect(await keysOf(await list('?q=hub'))).toEqual([]);
      expect(await keysOf(await list('?q=hub', h.b.readKey))).toEqual(['hub']);
    });

    it('answers 400 naming the parameter for a bad tag, state, limit, cursor, page or relay', async () => {
      for (const [query, path] of [
        ['?tag=Bad%20Tag', 'query.tag'],
        ['?state=sleeping', 'query.state'],
        ['?limit=501', 'query.limit'],
        ['?limit=2&cursor=nonsense', 'query.cursor'],
        ['?page=beta', 'query.page'],
        ['?relay=cellar', 'query.relay'],
      ] as const) {
        const res = await list(query);
        expect(res.status, query).toBe(400);
        expect((await res.json()).errors[0].path, query).toBe(path);
      }
      // A cursor of one sort is not one of another.
      const { nextCursor } = await (await list('?limit=1&sort=state')).json();
      expect((await list(`?limit=1&cursor=${nextCursor}`)).status).toBe(400);
    });

    it('changes tags through PATCH and refuses more than 20, or one twice', async () => {
      const id = (await h.store.monitors.findByKey(h.a.id, 'us-1'))!.id;
      const res = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { tags: ['us', 'edge.node-1'] } });
      expect(res.status).toBe(200);
      expect((await res.json()).tags).toEqual(['us', 'edge.node-1']);
      const many = await h.call('PATCH', `/api/v1/monitors/${id}`, {
        body: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      });
      expect(many.status).toBe(400);
      expect((await many.json()).errors[0].path).toBe('body.tags');
      const twice = await h.call('PATCH', `/api/v1/monitors/${id}`, { body: { tags: ['a', 'a'] } });
      expect(twice.status).toBe(400);
    });

    it('takes tags from warden.yaml, and a file that changes only the tags updates the monitor', async () => {
      const yaml = (tags: string) => `
organization: { key: gamma, name: Gamma }
monitors:
  - { key: m, name: M, type: tcp, tags: ${tags}, config: { host: play.example.com, port: 25565 } }
`;
      const first = await seed(h.store, yaml('[eu]'));
      expect(first.monitors.m?.tags).toEqual(['eu']);
      const second = await seed(h.store, yaml('[eu, prod]'));
      expect(second.report.updated).toEqual(['monitor m']);
      expect(second.monitors.m?.tags).toEqual(['eu', 'prod']);
      expect((await seed(h.store, yaml('[eu, prod]'))).report.updated).toEqual([]);
    });
  });
}
