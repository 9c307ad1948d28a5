// The built-in demo loaded when no config file is given: monitors that check the server itself, so a newcomer sees live data offline.
import { DEMO_ORGANIZATION_KEY } from '../domain/organization.js';
import type { ConfigFile } from './file-schema.js';
import { validateConfig } from './validate.js';

export const DEMO_SLUG = 'demo';
/** The demo's own organization: it never touches one a config file or the API made. */
export { DEMO_ORGANIZATION_KEY };

/** How often the demo pings its own heartbeat monitor. */
export const DEMO_HEARTBEAT_EVERY_MS = 30_000;

/**
 * `pushToken` is made fresh on each start and used only by the server's own demo pinger. `retired`: once the operator
 * has an organization of their own, the demo steps aside — its monitors paused (kept, with their history) and its page
 * gone from `/`, llms.txt and MCP — until `warden demo remove` deletes it.
 */
export function demoConfig(port: number, pushToken?: string, { retired = false } = {}): ConfigFile {
  return validateConfig(
    {
      // The demo watches the server itself on 127.0.0.1, also once other organizations share the database.
      organization: { key: DEMO_ORGANIZATION_KEY, name: 'Warden demo', probePrivateTargets: 'allow' },
      monitors: [
        {
          key: 'demo-http',
          name: 'Warden web server',
          type: 'http',
          intervalSec: 30,
          timeoutMs: 5000,
          enabled: !retired,
          config: { url: `http://127.0.0.1:${port}/healthz`, keyword: 'ok' },
        },
        {
          key: 'demo-tcp',
          name: 'Warden TCP port',
          type: 'tcp',
          intervalSec: 30,
          timeoutMs: 5000,
          enabled: !retired,
          config: { host: '127.0.0.1', port },
        },
        {
          key: 'demo-heartbeat',
          name: 'Demo heartbeat',
          type: 'heartbeat',
          enabled: !retired,
          ...(pushToken ? { pushToken } : {}),
          config: { graceSec: 90 },
        },
      ],
      pages: retired
        ? []
        : [
            {
              slug: DEMO_SLUG,
              title: 'Warden demo',
              description: 'A live demo: this server watching itself. Replace it with your own warden.yaml.',
              components: [
                { name: 'Website', monitor: 'demo-http', group: 'Web', description: 'GET /healthz over HTTP' },
                { name: 'TCP port', monitor: 'demo-tcp', group: 'Web', description: "The server's own port" },
                { name: 'Heartbeat', monitor: 'demo-heartbeat', group: 'Jobs', description: 'Pings pushed every 30 s' },
              ],
            },
          ],
    },
    'built-in demo',
  );
}

/** Pings the demo heartbeat over HTTP like a real job would, so the demo's heartbeat component shows live data. */
export function startDemoHeartbeat(baseUrl: string, pushToken: string, onError: (error: unknown) => void): () => void {
  let beat = 0;
  const ping = () => {
    beat++;
    fetch(`${baseUrl}/api/push/${pushToken}?status=up&msg=${encodeURIComponent(`demo beat ${beat}`)}`, {
      signal: AbortSignal.timeout(5000),
    })
      .then((response) => response.body?.cancel())
      .catch(onError);
  };
  const first = setTimeout(ping, 1000);
  const timer = setInterval(ping, DEMO_HEARTBEAT_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
