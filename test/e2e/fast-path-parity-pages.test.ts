// The pre-router serves status pages exactly as the app does: every form of a page, warm or never read yet, through a
// listener with the fast paths on and off gives the same status, headers (but x-request-id and date) and body, in every
// encoding and on revalidation; and with them on, none reaches the app.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dialects } from '../store-dialects.js';
import { FORMS, parityListeners, send } from './fast-path-parity-harness.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the pre-router and the app on ${dialect.name}`, () => {
    const p = parityListeners(dialect);

    it('serves every form of a warm page itself, as the app would', async () => {
      for (const path of FORMS) {
        const { answer, viaApp } = await p.same({ path });
        expect(answer.status, path).toBe(200);
        expect(viaApp, path).toBe(false);
      }
      const negotiated = await p.same({ path: '/s/acme', headers: { accept: 'text/markdown' } });
      expect(negotiated.answer.headers['content-type']).toMatch(/markdown/);
      const onDomain = await p.same({ path: '/status.json', headers: { host: 'status.acme.test' } });
      expect(onDomain.viaApp).toBe(false);
    });

    it('builds a page nobody read yet and renders its forms itself, og.png too, with the bytes the app then serves', async () => {
      for (const path of FORMS.map((form) => form.replace('acme', 'cold'))) {
        const before = p.appCalls;
        const first = await send(p.fast, { path, headers: { 'accept-encoding': 'br' } });
        expect(first.status, path).toBe(200);
        expect(p.appCalls, path).toBe(before);
        const reference = await send(p.slow, { path, headers: { 'accept-encoding': 'br' } });
        expect(first.headers, path).toEqual(reference.headers);
        expect(first.body.equals(reference.body), `${path}: body`).toBe(true);
      }
    });

    it('answers 304 to a matching If-None-Match and HEAD without a body, as the app would', async () => {
      for (const path of FORMS) {
        const { answer } = await p.same({ path });
        const revalidated = await p.same({ path, headers: { 'if-none-match': answer.headers.etag as string } });
        expect(revalidated.answer.status, path).toBe(304);
        const head = await p.same({ method: 'HEAD', path });
        expect(head.answer.body.length, path).toBe(0);
      }
    });

    it('answers each Accept-Encoding with the same bytes and ETag as the app, Brotli and gzip decompressing to the plain bytes', async () => {
      const codings = ['br', 'gzip', 'identity', 'gzip, deflate, br', 'br;q=0.5, gzip', 'identity;q=0, *', '*;q=0'];
      for (const path of [...FORMS, '/s/acme/status.md?lang=de']) {
        const plain = (await p.same({ path })).answer;
        for (const coding of codings) {
          const { answer, viaApp } = await p.same({ path, headers: { 'accept-encoding': coding } });
          expect(viaApp, `${path} ${coding}`).toBe(false);
          const encoding = answer.headers['content-encoding'];
          const decoded =
            encoding === 'br'
              ? brotliDecompressSync(answer.body)
              : encoding === 'gzip'
                ? gunzipSync(answer.body)
                : answer.body;
          expect(decoded.equals(plain.body), `${path} ${coding}`).toBe(true);
          if (encoding !== undefined)
            expect(answer.headers.etag, `${path} ${coding}`).toBe(
              `${plain.headers.etag?.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`,
            );
          if (answer.headers['content-type'] !== 'image/png')
            expect(answer.headers.vary, `${path} ${coding}`).toMatch(/Accept-Encoding/);
          const revalidated = await p.same({
            path,
            headers: { 'accept-encoding': coding, 'if-none-match': answer.headers.etag as string },
          });
          expect(revalidated.answer.status, `${path} ${coding}`).toBe(304);
          expect(revalidated.viaApp).toBe(false);
        }
      }
      const json = (await p.same({ path: '/api/v1/status/acme', headers: { 'accept-encoding': 'gzip, br' } })).answer;
      expect(json.headers['content-encoding']).toBe('br');
    });

    it('keeps answering from memory after the page index is reloaded', async () => {
      await p.h.pages.refreshIndex();
      for (const path of FORMS) {
        const { answer, viaApp } = await p.same({ path, headers: { 'accept-encoding': 'br' } });
        expect(answer.status, path).toBe(200);
        expect(viaApp, path).toBe(false);
      }
    });
  });
