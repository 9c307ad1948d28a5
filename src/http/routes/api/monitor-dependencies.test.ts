// A monitor's parent through the API (issue 37): set on create and PATCH, shown on read; a cycle refused with 400
// problem+json naming body.dependsOn and the path; a missing parent and one too deep refused alike; a relay's parent
// inherited by its monitors; deleting a parent leaves its children depending on nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitor dependencies API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    const create = (key: string, extra: Record<string, unknown> = {}) =>
      h.call('POST', '/api/v1/monitors', {
        body: { key, name: key.toUpperCase(), type: 'tcp', config: { host: 'a.example', port: 1 }, ...extra },
      });
    const patch = (key: string, body: Record<string, unknown>) => h.call('PATCH', `/api/v1/monitors/${key}`, { body });
    const problem = async (res: Response) => {
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      return ((await res.json()) as { errors: { path: string; message: string }[] }).errors;
    };

    it('keeps the parent a monitor is created with, and PATCH changes or removes it', async () => {
      expect((await create('a')).status).toBe(201);
      const b = await create('b', { dependsOn: 'a' });
      expect(b.status).toBe(201);
      expect(await b.json()).toMatchObject({ dependsOn: 'a', unreachable: null });
      expect((await create('c', { dependsOn: 'b' })).status).toBe(201);
      expect((await (await patch('c', { dependsOn: 'a' })).json()).dependsOn).toBe('a');
      expect((await (await patch('c', { dependsOn: 'b' })).json()).dependsOn).toBe('b');
      expect((await (await h.call('GET', '/api/v1/monitors/c')).json()).dependsOn).toBe('b');
    });

    it('refuses a cycle with 400 naming the field and the path', async () => {
      const errors = await problem(await patch('a', { dependsOn: 'c' }));
      expect(errors).toEqual([{ path: 'body.dependsOn', message: 'a dependency cycle: a → c → b → a' }]);
      expect(await problem(await patch('a', { dependsOn: 'a' }))).toEqual([
        { path: 'body.dependsOn', message: 'a monitor cannot depend on itself' },
      ]);
      expect(await problem(await create('d', { dependsOn: 'nope' }))).toEqual([
        { path: 'body.dependsOn', message: 'no monitor with key "nope"' },
      ]);
      expect((await (await h.call('GET', '/api/v1/monitors/a')).json()).dependsOn).toBeNull();
    });

    it('refuses a chain deeper than ten', async () => {
      for (let i = 0; i < 10; i++)
        expect((await create(`d${i}`, i === 0 ? {} : { dependsOn: `d${i - 1}` })).status).toBe(201);
      expect((await create('d10', { dependsOn: 'd9' })).status).toBe(201);
      const errors = await problem(await create('d11', { dependsOn: 'd10' }));
      expect(errors[0]?.message).toMatch(/^a dependency chain deeper than 10: d11 → d10 → d9 → /);
    });

    it("gives a relay's monitors the relay's parent, and refuses a relay parent that closes a cycle", async () => {
      const relay = await h.call('POST', '/api/v1/relays', {
        body: { key: 'cellar-x', name: 'Cellar', dependsOn: 'a' },
      });
      expect(relay.status).toBe(201);
      expect(await relay.json()).toMatchObject({ dependsOn: 'a' });
      expect((await create('r1', { runOn: 'relay', relay: 'cellar-x' })).status).toBe(201);
      const errors = await problem(await patch('a', { dependsOn: 'r1' }));
      expect(errors).toEqual([{ path: 'body.dependsOn', message: 'a dependency cycle: a → r1 → a' }]);
    });

    it('leaves the children of a deleted parent depending on nothing', async () => {
      expect((await h.call('DELETE', '/api/v1/monitors/b')).status).toBe(204);
      expect((await (await h.call('GET', '/api/v1/monitors/c')).json()).dependsOn).toBeNull();
    });
  });
}
