// The pre-router answers probes and heartbeats exactly as the app does: health and readiness, pushes stored or refused
// (bad bodies, unknown tokens, over the rate) give the same status, headers (but x-request-id and date) and body through
// a listener with the fast paths on and off, never reaching the app; what is not its own it leaves to the app.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../fakes/bad-pushes.js';
import { dialects } from '../store-dialects.js';
import { parityListeners, send, TOKEN, UNKNOWN } from './fast-path-parity-harness.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the pre-router and the app on ${dialect.name}`, () => {
    const p = parityListeners(dialect);

    it('answers health and readiness probes itself, as the app would', async () => {
      for (const ask of [{ path: '/healthz' }, { method: 'HEAD', path: '/healthz' }, { path: '/readyz' }]) {
        const { answer, viaApp } = await p.same(ask);
        expect(answer.status, ask.path).toBe(200);
        expect(viaApp, ask.path).toBe(false);
      }
      expect(JSON.parse((await send(p.fast, { path: '/readyz' })).body.toString())).toMatchObject({
        status: 'ready',
        database: dialect.name,
      });
    });

    it('leaves unknown slugs, other paths and preflights to the app', async () => {
      for (const ask of [
        { path: '/s/nope' },
        { path: '/s/nope/status.json' },
        { path: '/healthz?verbose' },
        {
          method: 'OPTIONS',
          path: '/s/acme',
          headers: { origin: 'https://x.test', 'access-control-request-method': 'GET' },
        },
      ])
        expect((await p.same(ask)).viaApp, ask.path).toBe(true);
    });

    it('stores heartbeats itself and answers them as the app would, the client’s request id kept', async () => {
      const get = await p.same({ path: `/api/push/${TOKEN}?status=down&msg=crashed&latency=7` });
      expect(get.answer.status).toBe(200);
      expect(get.viaApp).toBe(false);
      const post = await p.same({
        method: 'POST',
        path: `/api/push/${TOKEN}`,
        headers: { 'content-type': 'application/json' },
        body: '{"players":5,"tps":19.5}',
      });
      expect(post.answer.status).toBe(200);
      const empty = await p.same({ method: 'POST', path: `/api/push/${TOKEN}` });
      expect(empty.answer.status).toBe(200);
      const offered = await new Promise<string | undefined>((resolve) => {
        request(`${p.fast}/api/push/${TOKEN}`, { headers: { 'x-request-id': 'cron-42' } }, (res) =>
          resolve(res.headers['x-request-id'] as string),
        ).end();
      });
      expect(offered).toBe('cron-42');
    });

    it('refuses bad heartbeats and unknown tokens itself with the app’s problems', async () => {
      for (const [query] of BAD_PUSH_QUERIES)
        expect((await p.same({ path: `/api/push/${TOKEN}?${query}` })).answer.status, query).toBe(400);
      for (const [what, body] of BAD_PUSH_BODIES)
        expect(
          (
            await p.same({
              method: 'POST',
              path: `/api/push/${TOKEN}`,
              headers: { 'content-type': 'application/json' },
              body,
            })
          ).answer.status,
          what,
        ).toBe(400);
      const declaredTooLarge = await p.same({
        method: 'POST',
        path: `/api/push/${TOKEN}`,
        headers: { 'content-length': String(PUSH_LIMITS.bodyBytes + 1) },
        body: 'x'.repeat(PUSH_LIMITS.bodyBytes + 1),
      });
      expect(declaredTooLarge.answer.status).toBe(413);
      for (const method of ['GET', 'POST']) {
        const unknown = await p.same({ method, path: `/api/push/${UNKNOWN}` });
        expect(unknown.answer.status).toBe(404);
        expect(unknown.viaApp).toBe(false);
      }
      expect((await p.same({ path: '/api/push/not-a-token' })).answer.status).toBe(404);
    });

    // Last: it empties the token's bucket, and the harness's clock stands still.
    it('refuses a token over its rate with the app’s 429 and Retry-After, both paths sharing one bucket', async () => {
      let answered = 0;
      for (let i = 0; i < 100 && answered !== 429; i++)
        answered = (await send(p.fast, { path: `/api/push/${TOKEN}` })).status;
      expect(answered).toBe(429);
      for (const ask of [
        { path: `/api/push/${TOKEN}?status=up` },
        {
          method: 'POST',
          path: `/api/push/${TOKEN}`,
          headers: { 'content-type': 'application/json' },
          body: '{"players":1}',
        },
      ]) {
        const { answer, viaApp } = await p.same(ask);
        expect(answer.status).toBe(429);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(viaApp).toBe(false);
      }
    });
  });
