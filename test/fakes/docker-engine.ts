// A fake Docker Engine API: GET /containers/{id}/json answered as dockerd 27 answers it, over HTTP on a unix socket
// (as /var/run/docker.sock) or on TCP, with the containers a test gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeContainer {
  name: string;
  id: string;
  state: Record<string, unknown>;
  image?: string;
  restartCount?: number;
}

export interface DockerEngineFake {
  /** unix:///tmp/…/docker.sock, or tcp://127.0.0.1:port. */
  dockerHost: string;
  socketPath?: string;
  port?: number;
  requests: string[];
  close(): Promise<void>;
}

/** A running container's State as dockerd reports it, with a health check's state when given. */
export function runningState(health?: {
  Status: string;
  FailingStreak?: number;
  Log?: { Output: string; ExitCode: number }[];
}): Record<string, unknown> {
  return {
    Status: 'running',
    Running: true,
    Paused: false,
    Restarting: false,
    OOMKilled: false,
    Dead: false,
    Pid: 4242,
    ExitCode: 0,
    Error: '',
    StartedAt: '2026-11-28T09:15:02.123456789Z',
    FinishedAt: '0001-01-01T00:00:00Z',
    ...(health ? { Health: { FailingStreak: 0, Log: [], ...health } } : {}),
  };
}

/** The inspect answer of dockerd for one container, its fields in dockerd's order, the ones a probe ignores included. */
function inspect(container: FakeContainer): Record<string, unknown> {
  return {
    Id: container.id,
    Created: '2026-11-20T08:00:00.000000000Z',
    Path: '/docker-entrypoint.sh',
    Args: ['nginx', '-g', 'daemon off;'],
    State: container.state,
    Image: 'sha256:5ef79149e0ec84a7a9f9284c3f91aa3c20608f8391f5445eabe92ef07dbda03c',
    Name: `/${container.name}`,
    RestartCount: container.restartCount ?? 0,
    Driver: 'overlay2',
    Platform: 'linux',
    HostConfig: { NetworkMode: 'bridge', RestartPolicy: { Name: 'unless-stopped', MaximumRetryCount: 0 } },
    Mounts: [],
    Config: {
      Hostname: container.id.slice(0, 12),
      Image: container.image ?? 'nginx:1.27',
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      Labels: {},
    },
    NetworkSettings: { Networks: { bridge: { IPAddress: '172.17.0.2', Gateway: '172.17.0.1' } } },
  };
}

export async function startDockerEngineFake(
  containers: FakeContainer[],
  options: { tcp?: boolean; respond?: (req: IncomingMessage, res: ServerResponse) => boolean } = {},
): Promise<DockerEngineFake> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (options.respond?.(req, res)) return;
    const json = (status: number, body: unknown) =>
      res
        .writeHead(status, {
          'content-type': 'application/json',
          'api-version': '1.47',
          server: 'Docker/27.3.1 (linux)',
        })
        .end(`${JSON.stringify(body)}\n`);
    const match = /^\/(?:v[\d.]+\/)?containers\/([^/]+)\/json$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) return json(404, { message: 'page not found' });
    const wanted = decodeURIComponent(match[1] ?? '');
    const container = containers.find(
      (c) => c.name === wanted || c.id === wanted || (wanted.length >= 4 && c.id.startsWith(wanted)),
    );
    if (!container) return json(404, { message: `No such container: ${wanted}` });
    json(200, inspect(container));
  });
  if (options.tcp) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { dockerHost: `tcp://127.0.0.1:${port}`, port, requests, close: () => closeServer(server) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'warden-docker-'));
  const socketPath = join(dir, 'docker.sock');
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    dockerHost: `unix://${socketPath}`,
    socketPath,
    requests,
    close: async () => {
      await closeServer(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
