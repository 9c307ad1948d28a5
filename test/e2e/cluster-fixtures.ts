// The cluster end-to-end test's world: 300 TCP monitors every 10 s, a heartbeat, a relay and an alerting monitor in one
// warden.yaml, the bounds the issue sets, and a live-stream client that records when each message arrived.
import WebSocket from 'ws';
import type { LiveMessage } from '../../src/services/live/messages.js';
import { until } from '../cluster-harness.js';

export const MONITORS = 300;
export const INTERVAL_SEC = 10;
export const INTERVAL_MS = INTERVAL_SEC * 1000;
/** The bounds: a dead process's monitors run again within 30 s; a change made on one process shows on another within 1 s. */
export const FAILOVER_MS = 30_000;
export const CROSS_PROCESS_MS = 1_000;
export const PUSH_TOKEN = 'wdp_clusterE2eHeartbeat0123456789';
export const RELAY_TOKEN = 'wdr_clusterE2eRelayToken01234567';
export const ALERT_INTERVAL_SEC = 2;

/** A live-stream client that records every message with when it arrived. */
export async function listen(
  url: string,
): Promise<{ ws: WebSocket; messages: (LiveMessage & { receivedAt: number })[] }> {
  const ws = new WebSocket(url);
  const messages: (LiveMessage & { receivedAt: number })[] = [];
  ws.on('message', (data) =>
    messages.push({ ...(JSON.parse(String(data)) as LiveMessage), receivedAt: performance.now() }),
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await until('the first snapshot', () => messages.length > 0, 5000, 10);
  return { ws, messages };
}

export const liveMessageOf = (m: LiveMessage) => (m.type === 'monitor.update' ? m.component.live?.message : undefined);

export function config(targetPorts: number[], alertPort: number, discordUrl: string): string {
  const lines = [
    'organization: { key: acme, name: Acme }',
    `relays: [{ key: lab, name: Lab, token: ${RELAY_TOKEN} }]`,
    'notifications:',
    `  - { key: ops, name: Ops, type: discord, config: { url: "${discordUrl}/api/webhooks/1/x" } }`,
    'monitors:',
    `  - { key: heartbeat, name: Heartbeat, type: heartbeat, pushToken: ${PUSH_TOKEN}, config: { graceSec: 600 } }`,
    `  - { key: alerting, name: Alerting, type: tcp, retries: 0, timeoutMs: 1000, config: { host: 127.0.0.1, port: ${alertPort} } }`,
    '  - { key: far, name: Far, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.1, port: 25565 } }',
  ];
  for (let i = 0; i < MONITORS; i++)
    lines.push(
      `  - { key: tcp-${i}, name: TCP ${i}, type: tcp, intervalSec: ${INTERVAL_SEC}, timeoutMs: 2000, config: { host: 127.0.0.1, port: ${targetPorts[i % targetPorts.length]} } }`,
    );
  lines.push('pages:', '  - { slug: live, title: Live, components: [{ name: Heartbeat, monitor: heartbeat }] }');
  return lines.join('\n');
}
