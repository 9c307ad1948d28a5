// What the escalation process tests share (escalation-restart.test.ts, cluster-escalation.test.ts): TCP monitors
// checked every second against ports a test closes and reopens, two webhook channels hearing only what the policy
// sends them, a policy whose step 2 comes 12 s after the alert opened, and a receiver sorting what each channel got.
import { createServer, type Server } from 'node:net';
import type { Monitor } from '../../src/domain/monitor.js';
import type { Store } from '../../src/store/index.js';
import type { Receiver } from '../fakes/notify-receivers.js';
import { seed } from '../seed.js';

/**
 * Step 2, in minutes: 12 s. The API and warden.yaml take whole minutes; a shorter step is written to the database
 * directly (as the notification tests do with one-second checks), so the test takes seconds, not minutes.
 */
export const STEP2_MIN = 0.2;
export const STEP2_MS = STEP2_MIN * 60_000;
const SECRET = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;

/** A TCP port opened and closed at will, on the same number each time. */
export async function listenOn(port: number): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}
export const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
export const portOf = (server: Server) => (server.address() as { port: number }).port;

/**
 * The organization: a TCP monitor per port (by key), channels `first` and `second` to the receiver, and the policy
 * `oncall` for every monitor (step 1 at once to `first`, step 2 after STEP2_MIN to `second`); checks every second.
 */
export async function seedEscalation(
  store: Store,
  ports: Record<string, number>,
  receiverUrl: string,
): Promise<{ organizationId: string; monitors: Record<string, Monitor> }> {
  const monitors = Object.entries(ports).map(
    ([key, port]) =>
      `  - { key: ${key}, name: ${key}, type: tcp, retries: 0, timeoutMs: 800, config: { host: 127.0.0.1, port: ${port} } }`,
  );
  const channel = (key: string) =>
    `  - { key: ${key}, name: ${key}, type: webhook, rules: { events: [] }, config: { url: "${receiverUrl}/${key}", secret: "${SECRET}" } }`;
  const yaml = [
    'organization: { key: acme, name: Acme }',
    'monitors:',
    ...monitors,
    'notifications:',
    channel('first'),
    channel('second'),
    'escalationPolicies:',
    '  - { key: oncall, name: On call, steps: [{ afterMin: 0, channels: [first] }, { afterMin: 1, channels: [second] }] }',
  ].join('\n');
  const now = Date.now();
  const { report, monitors: seeded } = await seed(store, yaml, now);
  for (const monitor of Object.values(seeded))
    await store.monitors.updateSpec(monitor.id, { ...monitor, intervalSec: 1 }, monitor.managedBy, now);
  const policy = await store.escalationPolicies.findByKey(report.organization.id, 'oncall');
  if (!policy) throw new Error('the policy was not seeded');
  const steps = [policy.steps[0] as (typeof policy.steps)[number], { afterMin: STEP2_MIN, channels: ['second'] }];
  await store.escalationPolicies.update(policy.id, { ...policy, steps }, policy.managedBy, now);
  return { organizationId: report.organization.id, monitors: seeded };
}

export interface Heard {
  /** The receiver's path: `first` or `second`. */
  channel: string;
  webhookId: string;
  type: string;
  monitor: string;
  title: string;
  step: number | undefined;
}

/** What the receiver heard, in order. */
export function heard(receiver: Receiver): Heard[] {
  return receiver.requests.map((r) => {
    const body = r.json as {
      type: string;
      data: { title: string; monitor?: { key: string }; alert?: { escalationStep?: number } };
    };
    return {
      channel: r.path.replace(/^\//, ''),
      webhookId: String(r.headers['webhook-id']),
      type: body.type,
      monitor: body.data.monitor?.key ?? '',
      title: body.data.title,
      step: body.data.alert?.escalationStep,
    };
  });
}

/** `channel: monitor type step` for each message, in a stable order: what a test compares. */
export function summary(messages: readonly Heard[]): string[] {
  return messages.map((m) => `${m.channel}: ${m.monitor} ${m.type}${m.step ? ` step ${m.step}` : ''}`).sort();
}
