// A fake Pterodactyl / Pelican panel: the client API's GET /api/client as the panel answers it (servers with their
// allocations and, with ?include=egg, their egg), paged by ?page and ?per_page; ?type=admin-all lists every server for
// a root admin's key and none for another; GET /api/client/servers/{identifier}/schedules with their tasks (as the
// ScheduleTransformer and TaskTransformer write them); 401 for any other key.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePanelServer {
  identifier: string;
  name: string;
  egg: string;
  dockerImage: string;
  allocations: { ip: string; alias?: string; port: number; isDefault?: boolean }[];
  /** The panel's schedules of the server (none when absent). */
  schedules?: FakeSchedule[];
  /** False: another user's server, listed only with ?type=admin-all to a root admin. */
  owned?: boolean;
  /** True: the key lacks `schedule.read` on this server (a subuser), so its schedules answer 403. */
  schedulesForbidden?: boolean;
}

export interface FakeSchedule {
  id: number;
  name: string;
  /** minute hour day-of-month month day-of-week, as the panel's five cron fields. */
  cron: string;
  active?: boolean;
  /** In order; `offset` is the seconds after the previous task. */
  tasks: { action: 'power' | 'command' | 'backup'; payload: string; offset?: number }[];
}

export interface PterodactylPanelFake {
  url: string;
  key: string;
  /** Mutable: a test renames or moves a server between calls. */
  servers: FakePanelServer[];
  /** The request lines seen, e.g. `GET /api/client?include=egg&per_page=50&page=2`. */
  requests: string[];
  close(): Promise<void>;
}

/** The servers of a small hosting panel: one of each game discovery knows, and one it does not. */
export function hostedServers(): FakePanelServer[] {
  const at = (port: number, alias?: string) => [{ ip: '10.0.0.5', ...(alias ? { alias } : {}), port, isDefault: true }];
  return [
    {
      identifier: '1a7ce997',
      name: 'Survival',
      egg: 'Paper',
      dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
      allocations: [
        { ip: '10.0.0.5', port: 25566 },
        { ip: '203.0.113.7', alias: 'mc.example.com', port: 25565, isDefault: true },
      ],
      schedules: [
        {
          id: 1,
          name: 'Nightly restart',
          cron: '0 4 * * *',
          tasks: [
            { action: 'command', payload: 'say Restarting in 5 minutes' },
            { action: 'power', payload: 'restart', offset: 300 },
          ],
        },
        { id: 2, name: 'Backup', cron: '0 3 * * *', tasks: [{ action: 'backup', payload: '' }] },
        {
          id: 3,
          name: 'Old restart',
          cron: '0 12 * * *',
          active: false,
          tasks: [{ action: 'power', payload: 'restart' }],
        },
      ],
    },
    {
      identifier: '2b8df008',
      name: 'Pocket',
      egg: 'Vanilla Bedrock',
      dockerImage: 'ghcr.io/parkervcp/yolks:debian',
      allocations: at(19132),
    },
    {
      identifier: '3c9e0119',
      name: 'Arena',
      egg: 'Custom Source Engine Game',
      dockerImage: 'ghcr.io/pterodactyl/games:source',
      allocations: at(27015),
    },
    {
      identifier: '4d0f122a',
      name: 'Wipe day',
      egg: 'Rust',
      dockerImage: 'ghcr.io/pterodactyl/games:rust',
      allocations: at(28015),
      schedules: [
        { id: 7, name: 'Wipe', cron: '0 18 * * 4', tasks: [{ action: 'power', payload: 'kill' }] },
        { id: 8, name: 'Morning', cron: '30 6 * * *', tasks: [{ action: 'command', payload: 'restart 60' }] },
      ],
    },
    {
      identifier: '5e1a233b',
      name: 'Roleplay',
      egg: 'FiveM',
      dockerImage: 'ghcr.io/parkervcp/yolks:debian',
      allocations: [{ ip: '0.0.0.0', port: 30120, isDefault: true }],
    },
    {
      identifier: '6f2b344c',
      name: 'Voice',
      egg: 'Teamspeak3 Server',
      dockerImage: 'ghcr.io/parkervcp/yolks:debian',
      allocations: at(9987),
    },
  ];
}

export async function startPterodactylPanel(
  options: { servers?: FakePanelServer[]; key?: string; perPageMax?: number; rootAdmin?: boolean } = {},
): Promise<PterodactylPanelFake> {
  const fake = {
    url: '',
    key: options.key ?? 'ptlc_fakeClientKey0123456789',
    servers: options.servers ?? hostedServers(),
    requests: [] as string[],
    rootAdmin: options.rootAdmin ?? false,
  };
  const server = createServer((req, res) => answer(req, res, fake, options.perPageMax ?? 50));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...fake,
    get servers() {
      return fake.servers;
    },
    set servers(value) {
      fake.servers = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type FakeState = { key: string; servers: FakePanelServer[]; requests: string[]; rootAdmin: boolean };

const NOT_FOUND = { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] };

function answer(req: IncomingMessage, res: ServerResponse, fake: FakeState, perPageMax: number): void {
  fake.requests.push(`${req.method} ${req.url}`);
  const url = new URL(req.url ?? '/', 'http://panel');
  if (req.headers.authorization !== `Bearer ${fake.key}`) {
    json(res, 401, { errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }] });
    return;
  }
  const schedules = /^\/api\/client\/servers\/([^/]+)\/schedules$/.exec(url.pathname);
  if (req.method === 'GET' && schedules) {
    answerSchedules(res, fake, decodeURIComponent(schedules[1] as string));
    return;
  }
  if (req.method !== 'GET' || url.pathname !== '/api/client') {
    json(res, 404, NOT_FOUND);
    return;
  }
  // As ClientController: admin-all lists every server to a root admin and none to anyone else.
  const type = url.searchParams.get('type');
  const visible =
    type === 'admin-all' ? (fake.rootAdmin ? fake.servers : []) : fake.servers.filter((s) => s.owned !== false);
  const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 50), perPageMax);
  const page = Number(url.searchParams.get('page') ?? 1);
  const withEgg = (url.searchParams.get('include') ?? '').split(',').includes('egg');
  const slice = visible.slice((page - 1) * perPage, page * perPage);
  const totalPages = Math.max(1, Math.ceil(visible.length / perPage));
  json(res, 200, {
    object: 'list',
    data: slice.map((s) => serverObject(s, withEgg)),
    meta: {
      pagination: {
        total: visible.length,
        count: slice.length,
        per_page: perPage,
        current_page: page,
        total_pages: totalPages,
        links: page < totalPages ? { next: `${url.origin}/api/client?page=${page + 1}` } : {},
      },
    },
  });
}

/** A server's schedules: 404 for a server the key cannot reach, 403 without `schedule.read`. */
function answerSchedules(res: ServerResponse, fake: FakeState, identifier: string): void {
  const server = fake.servers.find((s) => s.identifier === identifier);
  if (!server || (server.owned === false && !fake.rootAdmin)) {
    json(res, 404, NOT_FOUND);
    return;
  }
  if (server.schedulesForbidden) {
    json(res, 403, {
      errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }],
    });
    return;
  }
  json(res, 200, { object: 'list', data: (server.schedules ?? []).map(scheduleObject) });
}

const AT = '2026-01-01T00:00:00+00:00';

/** A schedule as the client API's ScheduleTransformer writes it, its tasks included by default. */
function scheduleObject(s: FakeSchedule) {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = s.cron.split(' ');
  return {
    object: 'server_schedule',
    attributes: {
      id: s.id,
      name: s.name,
      cron: { day_of_week: dayOfWeek, day_of_month: dayOfMonth, month, hour, minute },
      is_active: s.active ?? true,
      is_processing: false,
      only_when_online: false,
      last_run_at: null,
      next_run_at: '2026-01-02T04:00:00+00:00',
      created_at: AT,
      updated_at: AT,
      relationships: {
        tasks: {
          object: 'list',
          data: s.tasks.map((t, i) => ({
            object: 'schedule_task',
            attributes: {
              id: s.id * 100 + i,
              sequence_id: i + 1,
              action: t.action,
              payload: t.payload,
              time_offset: t.offset ?? 0,
              is_queued: false,
              continue_on_failure: false,
              created_at: AT,
              updated_at: AT,
            },
          })),
        },
      },
    },
  };
}

/** A server as the client API's ServerTransformer writes it (allocations and variables included by default). */
function serverObject(s: FakePanelServer, withEgg: boolean) {
  return {
    object: 'server',
    attributes: {
      server_owner: true,
      identifier: s.identifier,
      internal_id: Number.parseInt(s.identifier.slice(0, 2), 16),
      uuid: `${s.identifier}-0000-4000-8000-000000000000`,
      name: s.name,
      node: 'Node 1',
      is_node_under_maintenance: false,
      sftp_details: { ip: 'node1.example.com', port: 2022 },
      description: '',
      limits: { memory: 4096, swap: 0, disk: 20480, io: 500, cpu: 200, threads: null, oom_disabled: true },
      invocation: 'java -jar server.jar',
      docker_image: s.dockerImage,
      egg_features: [],
      feature_limits: { databases: 1, allocations: 2, backups: 3 },
      status: null,
      is_suspended: false,
      is_installing: false,
      is_transferring: false,
      relationships: {
        allocations: {
          object: 'list',
          data: s.allocations.map((a, i) => ({
            object: 'allocation',
            attributes: {
              id: i + 1,
              ip: a.ip,
              ip_alias: a.alias ?? null,
              port: a.port,
              notes: null,
              is_default: a.isDefault ?? false,
            },
          })),
        },
        variables: { object: 'list', data: [] },
        ...(withEgg ? { egg: { object: 'egg', attributes: { uuid: `${s.identifier}-egg`, name: s.egg } } } : {}),
      },
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
