// The request lines of a running server (pre-router and app): at debug unless LOG_REQUESTS=1, then at info; tokens in
// paths masked, the metrics token never written.
import { afterEach, describe, expect, it } from 'vitest';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { readSettings } from '../../config/settings.js';
import { createLogger } from '../../logger.js';
import { startWarden, type Warden } from '../../main.js';

const PUSH_TOKEN = 'wdp_requestLogHeartbeatToken01';
const METRICS_TOKEN = 'request-log-metrics-token-0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${PUSH_TOKEN} }
pages:
  - slug: status
    title: Status
    components:
      - { name: Lobby, monitor: lobby }
`;

interface Line {
  level: number;
  msg: string;
  requestId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

describe('request lines', () => {
  let opened: OpenedStore | undefined;
  let warden: Warden | undefined;
  afterEach(async () => {
    await warden?.close();
    await opened?.cleanup();
  });

  async function serve(env: Record<string, string>): Promise<{ url: string; text: string[]; requests: () => Line[] }> {
    opened = await dialects[0]!.open();
    await seed(opened.store, CONFIG, Date.now());
    const text: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void text.push(line) });
    warden = await startWarden({
      settings: readSettings({
        ...opened.env,
        PORT: '0',
        HOST: '127.0.0.1',
        WARDEN_METRICS_TOKEN: METRICS_TOKEN,
        ...env,
      }),
      logger,
    });
    const url = warden.url.replace('localhost', '127.0.0.1');
    return { url, text, requests: () => text.map((l) => JSON.parse(l) as Line).filter((l) => l.msg === 'request') };
  }

  async function traffic(url: string): Promise<void> {
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${url}/api/v1/status/status`, { headers: { 'x-request-id': `page-${i}` } })).status).toBe(
        200,
      );
    expect((await fetch(`${url}/api/push/${PUSH_TOKEN}`, { headers: { 'x-request-id': 'push-1' } })).status).toBe(200);
    expect((await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'health-1' } })).status).toBe(200);
    expect(
      (
        await fetch(`${url}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}`, 'x-request-id': 'scrape-1' },
        })
      ).status,
    ).toBe(200);
  }

  it('with LOG_REQUESTS=1, writes one info line per answered request, fast path included, tokens masked', async () => {
    const { url, text, requests } = await serve({ LOG_REQUESTS: '1' });
    await traffic(url);
    const lines = requests();
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(line.ms).toEqual(expect.any(Number));
      expect(line.method).toBe('GET');
    }
    const byId = new Map(lines.map((l) => [l.requestId, l]));
    // The last page reads came from memory (the pre-router): the same line as the app's.
    expect(byId.get('page-2')).toMatchObject({ path: '/api/v1/status/status', status: 200 });
    expect(byId.get('push-1')).toMatchObject({ path: '/api/push/wdp_requestL…', status: 200 });
    expect(byId.get('health-1')).toMatchObject({ path: '/healthz', status: 200 });
    expect(byId.get('scrape-1')).toMatchObject({ path: '/metrics', status: 200 });
    const all = text.join('');
    expect(all).not.toContain(PUSH_TOKEN);
    expect(all).not.toContain(METRICS_TOKEN);
  });

  it('without it, writes none at info', async () => {
    const { url, text, requests } = await serve({});
    await traffic(url);
    expect(requests()).toEqual([]);
    expect(text.join('')).not.toContain(METRICS_TOKEN);
  });
});
