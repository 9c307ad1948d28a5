// A fake receiver for notification channels on node:http: records each request exactly (method, path, headers, raw
// and parsed body) and answers as told (a status, headers, a body, or never). Also the events the channel tests send.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANY_TARGET, type TargetGuard } from '../../src/net/target-guard.js';
import type { NotificationEvent, SendContext } from '../../src/notify/channels/channel.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export type Answer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | 'never'
  | ((res: ServerResponse) => void);

export interface Receiver {
  /** Origin such as http://127.0.0.1:41234, without a trailing slash. */
  url: string;
  requests: ReceivedRequest[];
  /** What the next requests get (200 with an empty body until told otherwise). */
  answer(answer: Answer): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0: a free one; a fixed one to come back where a channel points after being down). */
export async function startReceiver(initial: Answer = { status: 200 }, port = 0): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let answer = initial;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json: parse(raw) });
      if (answer === 'never') return;
      if (typeof answer === 'function') return answer(res);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer: (next) => {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * A context for one attempt: the real clock (signatures are checked against it), aborted after `timeoutMs`, any
 * address allowed (the fakes listen on loopback) unless a guard is given.
 */
export function sendContext(timeoutMs = 5000, guard: TargetGuard = ANY_TARGET): SendContext {
  return { signal: AbortSignal.timeout(timeoutMs), now: Date.now(), attempt: 0, guard };
}

export const AT = Date.UTC(2025, 2, 1, 14, 5, 0);
const base = {
  at: AT,
  organization: { key: 'acme', name: 'Acme Games' },
  pages: [{ slug: 'main', title: 'Acme status', url: 'https://status.acme.test/main' }],
};
const lobby = { id: 'mon_1', key: 'lobby', name: 'Lobby', type: 'minecraft-java' };

export const DOWN_EVENT: NotificationEvent = {
  ...base,
  id: 'evt_down_1',
  kind: 'monitor.down',
  severity: 'critical',
  title: 'Lobby is down',
  reason: 'connection refused <127.0.0.1:25565> & retried',
  monitor: { ...lobby, state: 'down', previousState: 'up' },
};

export const RECOVERED_EVENT: NotificationEvent = {
  ...base,
  id: 'evt_up_1',
  kind: 'monitor.recovered',
  severity: 'ok',
  title: 'Lobby is back up after 4 min',
  reason: null,
  monitor: { ...lobby, state: 'up', previousState: 'down', downtimeMs: 252_000, players: { online: 12, max: 64 } },
};

export const INCIDENT_EVENT: NotificationEvent = {
  ...base,
  id: 'evt_inc_1',
  kind: 'incident.created',
  severity: 'warning',
  title: 'Incident: Login queue delays',
  reason: 'We are looking into slow logins.',
  incident: {
    id: 'inc_1',
    title: 'Login queue delays',
    status: 'investigating',
    impact: 'minor',
    message: 'We are looking into slow logins.',
  },
};

/** An event with nothing optional: no reason, no monitor, no page. */
export const BARE_EVENT: NotificationEvent = {
  id: 'evt_test_1',
  kind: 'test',
  at: AT,
  severity: 'info',
  title: 'Test notification from Warden',
  reason: null,
  organization: { key: 'acme', name: 'Acme Games' },
  pages: [],
};
