import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../test/api-app.js';
import { dialects } from '../../../test/store-dialects.js';

const sqlite = dialects[0] as (typeof dialects)[number];

describe('the organization API with a session cookie', () => {
  let h: ApiHarness;
  let editor: string;
  let viewer: string;
  let both: string;
  beforeAll(async () => {
    h = await openApiHarness(sqlite);
    editor = (await signedInUser(h.context, [{ organizationId: h.a.id, role: 'editor' }])).cookie;
    viewer = (await signedInUser(h.context, [{ organizationId: h.a.id, role: 'viewer' }])).cookie;
    both = (
      await signedInUser(h.context, [
        { organizationId: h.a.id, role: 'viewer' },
        { organizationId: h.b.id, role: 'admin' },
      ])
    ).cookie;
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (path: string, cookie: string, headers: Record<string, string> = {}) =>
    h.call('GET', path, { key: null, headers: { cookie, ...headers } });
  const post = (path: string, cookie: string, body: unknown, headers: Record<string, string> = {}) =>
    h.call('POST', path, { key: null, body, headers: { cookie, ...headers } });

  it("reads the member's organization's monitors, never stored by a cache", async () => {
    const res = await get('/api/v1/monitors', editor);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).monitors.map((m: { key: string }) => m.key).sort()).toEqual(['lobby', 'panel']);
  });

  it('answers 401 for an unknown or malformed session', async () => {
    expect((await get('/api/v1/monitors', 'warden_session=wds_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
    expect((await get('/api/v1/monitors', 'warden_session=nonsense')).status).toBe(401);
  });

  it("lets an editor write from Warden's own origin, and refuses a write from another site (CSRF)", async () => {
    const body = { key: 'csrf-probe', name: 'Probe', type: 'tcp', config: { host: '127.0.0.1', port: 1 } };
    const foreign = await post('/api/v1/monitors', editor, body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await post('/api/v1/monitors', editor, body)).status).toBe(403);
    const own = await post('/api/v1/monitors', editor, body, { origin: BASE_URL });
    expect(own.status).toBe(201);
  });

  it('refuses a viewer any write, naming the role needed', async () => {
    const res = await post(
      '/api/v1/monitors',
      viewer,
      { key: 'nope', name: 'N', type: 'tcp', config: { host: '127.0.0.1', port: 1 } },
      { origin: BASE_URL },
    );
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/editor role or above; you are a viewer/);
  });

  it('acts for the organization the X-Warden-Organization header names, and only one the user belongs to', async () => {
    const beta = await get('/api/v1/monitors', both, { 'x-warden-organization': 'beta' });
    expect((await beta.json()).monitors.map((m: { key: string }) => m.key)).toEqual(['hub']);
    expect((await get('/api/v1/monitors', editor, { 'x-warden-organization': 'beta' })).status).toBe(403);
  });
});
