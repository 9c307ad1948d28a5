// Every authenticated answer says `Cache-Control: no-store`: the organization API (successes and every error, the
// key shown once included), the relay endpoints, and MCP. Public status answers stay cacheable. A real server
// (startWarden) on each storage dialect.
import { type IncomingHttpHeaders, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/domain/json-depth.js';
import { API_LIMITS } from '../../src/services/api-limits.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const RELAY = 'wdr_noStoreRelayToken0123456789ab';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab, token: ${RELAY} }]
monitors:
  - { key: far, name: Far, type: rcon, runOn: relay, relay: lab, config: { host: 10.0.0.6, password: rcon-secret } }
pages:
  - { slug: acme, title: Acme, components: [{ name: Far, monitor: far }] }
`;
/** A small budget, so a 429 is reached in a few requests. */
const RATE = 12;

/**
 * A POST on a connection of its own: a 413 is answered before the body is read, and a client that reuses that
 * connection afterwards (fetch does) may find it closed once the server stops discarding what it still sends.
 */
function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`Cache-Control: no-store on authenticated answers (${dialect.name})`, () => {
    let s: SeededWarden;
    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG, { WARDEN_API_RATE_LIMIT: String(RATE) });
    });
    afterAll(async () => {
      await s?.close();
    });

    const call = (
      path: string,
      init: { method?: string; key?: string | null; body?: string; headers?: Record<string, string> } = {},
    ) => {
      const { method = 'GET', key = s.writeKey, body, headers = {} } = init;
      return fetch(`${s.url}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body }),
      });
    };
    const expectNoStore = async (what: string, res: Promise<Response>, status: number) => {
      const answer = await res;
      expect(answer.status, what).toBe(status);
      expect(answer.headers.get('cache-control'), what).toBe('no-store');
      return answer;
    };

    it('on the organization API: successes, the new key shown once, and every error (401, 403, 404, 400, 413, 429)', async () => {
      await expectNoStore('list', call('/api/v1/monitors'), 200);
      const created = await expectNoStore(
        'new key',
        call('/api/v1/api-keys', { method: 'POST', body: '{"name":"ci","scope":"read"}' }),
        201,
      );
      expect((await created.json()).key).toMatch(/^wdn_/);
      await expectNoStore('no key', call('/api/v1/monitors', { key: null }), 401);
      await expectNoStore('unknown key', call('/api/v1/monitors', { key: 'wdn_notAKeyAnyoneHolds000000000000' }), 401);
      await expectNoStore(
        'read key writing',
        call('/api/v1/monitors', { method: 'POST', key: s.readKey, body: '{}' }),
        403,
      );
      await expectNoStore('unknown monitor', call('/api/v1/monitors/mon_nosuchmonitor0000'), 404);
      await expectNoStore('invalid body', call('/api/v1/monitors', { method: 'POST', body: '{"key":1}' }), 400);
      const deep = await expectNoStore(
        'deep body',
        call('/api/v1/monitors', { method: 'POST', body: `{"config":${'['.repeat(50_000)}${']'.repeat(50_000)}}` }),
        400,
      );
      expect((await deep.json()).errors).toEqual([
        { path: 'body', message: `nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects` },
      ]);
      const tooLarge = await postOnce(
        `${s.url}/api/v1/monitors`,
        { authorization: `Bearer ${s.writeKey}` },
        `{"pad":"${'x'.repeat(API_LIMITS.bodyBytes)}"}`,
      );
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers['cache-control']).toBe('no-store');
      let limited: Response | undefined;
      for (let i = 0; i < RATE + 2 && limited === undefined; i++) {
        const res = await call('/api/v1/relays');
        if (res.status === 429) limited = res;
      }
      expect(limited?.headers.get('cache-control')).toBe('no-store');
      expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('on the relay endpoints: the config (it holds secrets), its 304, results, and their errors', async () => {
      const auth = { authorization: `Bearer ${RELAY}` };
      const config = await expectNoStore('config', fetch(`${s.url}/api/relay/config`, { headers: auth }), 200);
      expect(await config.text()).toContain('rcon-secret');
      const etag = config.headers.get('etag') as string;
      await expectNoStore(
        '304',
        fetch(`${s.url}/api/relay/config`, { headers: { ...auth, 'if-none-match': etag } }),
        304,
      );
      await expectNoStore('no token', fetch(`${s.url}/api/relay/config`), 401);
      const post = (body: string) =>
        fetch(`${s.url}/api/relay/results`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        });
      await expectNoStore('results', post('{"results":[]}'), 200);
      await expectNoStore('not JSON', post('{"results":'), 400);
      await expectNoStore('too many', post(JSON.stringify({ results: Array.from({ length: 1001 }, () => ({})) })), 413);
    });

    it('on MCP, whatever credentials are sent', async () => {
      const rpc = (headers: Record<string, string>) =>
        fetch(`${s.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        });
      await expectNoStore('MCP with an API key', rpc({ authorization: `Bearer ${s.readKey}` }), 200);
      await expectNoStore('MCP without', rpc({}), 200);
    });

    it('but not on public status answers, which stay cacheable', async () => {
      const res = await fetch(`${s.url}/api/v1/status/acme`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).not.toBe('no-store');
      expect(res.headers.get('etag')).toBeTruthy();
    });
  });
