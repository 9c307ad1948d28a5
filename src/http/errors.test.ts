// How the HTTP surface answers what it cannot serve: unknown routes and methods, oversized, unsupported and invalid bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../test/api-app.js';
import { dialects } from '../../test/store-dialects.js';
import { API_LIMITS } from '../services/api-limits.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`errors of the HTTP surface on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers 404 problem+json for an unknown route', async () => {
      for (const path of ['/nope', '/api/v1/nope', '/api/v1/monitors/x/y/z']) {
        const res = await h.call('GET', path);
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect(await res.json()).toMatchObject({
          type: 'https://warden.dev/problems/not-found',
          title: 'Not found',
          status: 404,
          instance: path,
        });
      }
    });

    it('answers 405 with Allow for a known path and a wrong method', async () => {
      let res = await h.call('PUT', '/api/v1/monitors');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({ type: 'https://warden.dev/problems/method-not-allowed', status: 405 });
      res = await h.call('POST', '/api/v1/pages/alpha');
      expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
      res = await h.call('DELETE', '/api/openapi.json', { key: null });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });

    it('answers 405 with Allow at the public page paths its middleware serves, whatever the slug', async () => {
      for (const path of [
        '/api/v1/status/alpha',
        '/api/v1/status/no-such-page',
        '/s/alpha/status.json',
        '/s/alpha/badge.svg',
      ]) {
        const res = await h.call('DELETE', path, { key: null });
        expect(res.status, path).toBe(405);
        expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
        expect(res.headers.get('content-type'), path).toBe('application/problem+json');
        expect(await res.json()).toMatchObject({
          status: 405,
          detail: `DELETE is not supported at ${path}; use GET, HEAD, OPTIONS.`,
        });
      }
      expect((await h.call('PUT', '/s/alpha/subscribe', { key: null })).headers.get('allow')).toContain('POST');
      // A path nothing serves stays 404.
      expect((await h.call('DELETE', '/api/v1/nothing-here', { key: null })).status).toBe(404);
      expect((await h.call('GET', '/api/v1/status/no-such-page', { key: null })).status).toBe(404);
    });

    it('reads a declared path with a suffix as the suffix says: /docs/{name}.md is not /docs/package.json', async () => {
      expect((await h.call('DELETE', '/docs/storage.md', { key: null })).status).toBe(405);
      for (const method of ['GET', 'DELETE'])
        expect((await h.call(method, '/docs/package.json', { key: null })).status, method).toBe(404);
      // A method the path takes, with nothing at it, is a 404 and not a 405.
      expect((await h.call('GET', '/docs/no-such-doc.md', { key: null })).status).toBe(404);
    });

    it('answers OPTIONS with the allowed methods', async () => {
      const res = await h.call('OPTIONS', '/api/v1/relays/rly_x', { key: null });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
    });

    it('answers 413 for a body over the limit, with or without Content-Length', async () => {
      const big = JSON.stringify({ key: 'big', name: 'x'.repeat(API_LIMITS.bodyBytes) });
      let res = await h.call('POST', '/api/v1/relays', { body: big });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ type: 'https://warden.dev/problems/body-too-large', status: 413 });
      res = await h.call('POST', '/api/v1/relays', {
        body: '{}',
        headers: { 'content-length': String(API_LIMITS.bodyBytes + 1) },
      });
      expect(res.status).toBe(413);
    });

    it('answers 415 for a body that is not JSON, and 400 for JSON that does not parse', async () => {
      let res = await h.call('POST', '/api/v1/relays', {
        body: 'key=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({
        type: 'https://warden.dev/problems/unsupported-media-type',
        status: 415,
      });
      res = await h.call('PATCH', '/api/v1/pages/alpha', { body: 'title', headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(415);
      res = await h.call('POST', '/api/v1/relays', { body: '{"key":' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ type: 'https://warden.dev/problems/malformed', status: 400 });
    });

    it('answers 400 with an errors array naming each field, in problem+json', async () => {
      const res = await h.call('POST', '/api/v1/pages', { body: { slug: 'ok-slug', title: 7, extra: true } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = await res.json();
      expect(problem).toMatchObject({
        type: 'https://warden.dev/problems/validation',
        title: 'Invalid request',
        status: 400,
        detail: expect.any(String),
      });
      expect(problem.errors).toEqual(
        expect.arrayContaining([
          { path: 'body.title', message: expect.any(String) },
          { path: 'body', message: expect.stringContaining('extra') },
        ]),
      );
    });
  });
