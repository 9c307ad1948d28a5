// Who is online on the live stream: the names ride along only on the stream of a page that shows them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { dialects } from '../../test/store-dialects.js';
import { until } from '../../test/until.js';
import { createLogger } from '../logger.js';
import type { LiveMessage } from '../services/live/messages.js';
import { createPageAccess } from '../services/pages/page-access.js';
import { attachLiveStream, type LiveStream } from './live.js';
import { createRequestListener } from './pre-router.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: rust, name: Rust, type: rust-webrcon, config: { host: 127.0.0.1, password: pw, playerNames: true } }
pages:
  - { slug: shown, title: Shown, showPlayerNames: true, components: [{ name: Rust, monitor: rust }] }
  - { slug: hidden, title: Hidden, components: [{ name: Rust, monitor: rust }] }
`;

/** Every message a page's stream sends, as it arrives. */
async function listen(base: string, slug: string): Promise<{ ws: WebSocket; messages: LiveMessage[] }> {
  const ws = new WebSocket(`${base}/s/${slug}/live`);
  const messages: LiveMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await until(`the first message on ${slug}`, () => messages.length > 0, 3000);
  return { ws, messages };
}

const namesIn = (messages: LiveMessage[]) =>
  messages.flatMap((m) => (m.type === 'monitor.update' ? [m.component.live?.playerNames ?? null] : []));

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`who is online on the live stream on ${dialect.name}`, () => {
    let h: Harness;
    let server: Server;
    let live: LiveStream;
    let base: string;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      server = createServer(createRequestListener(h.app, { fastPaths: h.fastPaths, logger: createLogger('silent') }));
      live = attachLiveStream(server, {
        pages: h.pages,
        pageAccess: createPageAccess(),
        clock: h.clock,
        logger: createLogger('silent'),
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await live.close();
      await new Promise((resolve) => server.close(resolve));
      await h.close();
    });

    it('sends the names to the readers of the page that shows them, and only to them', async () => {
      const shown = await listen(base, 'shown');
      const hidden = await listen(base, 'hidden');
      try {
        h.clock.advance(1000);
        await h.ingest.record({
          monitorId: h.monitors.rust!.id,
          ok: true,
          data: { players: 2, maxPlayers: 100, playerNames: ['Ann', 'Bob'] },
          source: 'edge',
        });
        await until(
          'the update on both streams',
          () => namesIn(shown.messages).length > 0 && namesIn(hidden.messages).length > 0,
          5000,
        );
        expect(namesIn(shown.messages)).toContainEqual(['Ann', 'Bob']);
        expect(namesIn(hidden.messages)).toEqual([null]);
        expect(JSON.stringify(hidden.messages)).not.toMatch(/Ann|Bob|playerNames/);
      } finally {
        shown.ws.close();
        hidden.ws.close();
      }
    });
  });
