// The docker monitor against a fake Docker Engine API speaking HTTP on a unix socket (as /var/run/docker.sock) and on
// TCP: running, healthy, starting, unhealthy, exited and missing containers; refusal of the socket under deny.
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import {
  type DockerEngineFake,
  type FakeContainer,
  runningState,
  startDockerEngineFake,
} from '../../test/fakes/docker-engine.js';
import { sendEndlessBody } from '../../test/fakes/http-fakes.js';
import { checkAgainst, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { docker } from './docker.js';

const ID = '4fa6e0f0c6786287e131c3852c58a2e01cc697a68231826813597e4994f1d6e2';
const CONTAINERS: FakeContainer[] = [
  { name: 'web', id: ID, state: runningState() },
  { name: 'api', id: 'a'.repeat(64), state: runningState({ Status: 'healthy' }) },
  { name: 'worker', id: 'b'.repeat(64), state: runningState({ Status: 'starting' }) },
  {
    name: 'db',
    id: 'c'.repeat(64),
    state: runningState({
      Status: 'unhealthy',
      FailingStreak: 3,
      Log: [{ Output: 'pg_isready: /var/run/postgresql:5432 - no response\n', ExitCode: 2 }],
    }),
  },
  {
    name: 'batch',
    id: 'd'.repeat(64),
    state: {
      ...runningState(),
      Status: 'exited',
      Running: false,
      OOMKilled: true,
      ExitCode: 137,
      FinishedAt: '2026-11-28T10:00:03.5Z',
    },
  },
  {
    name: 'cache',
    id: 'e'.repeat(64),
    state: { ...runningState(), Status: 'restarting', Restarting: true, ExitCode: 1 },
    restartCount: 12,
  },
];

const fakes: DockerEngineFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
async function engine(options?: Parameters<typeof startDockerEngineFake>[1]): Promise<DockerEngineFake> {
  const fake = await startDockerEngineFake(CONTAINERS, options);
  fakes.push(fake);
  return fake;
}

describe('docker probe', () => {
  it('is up for a running container, asked by name through the unix socket', async () => {
    const fake = await startDockerEngineFake(CONTAINERS);
    const { result } = await checkAgainst(fake, docker, { dockerHost: fake.dockerHost, container: 'web' }, 1500);
    expect(result).toMatchObject({
      ok: true,
      message: 'running since 2026-11-28 09:15:02 UTC',
      data: { container: 'web', image: 'nginx:1.27', status: 'running', restartCount: 0 },
    });
    expect(fake.requests).toEqual(['GET /containers/web/json']);
  });

  it('follows the health check: healthy is up, starting degraded, unhealthy down with its last output', async () => {
    const fake = await engine();
    const check = (container: string) => probeDirectly(docker, { dockerHost: fake.dockerHost, container });
    expect(await check('api')).toMatchObject({
      ok: true,
      message: 'running since 2026-11-28 09:15:02 UTC, healthy',
      data: { health: 'healthy' },
    });
    expect(await check('worker')).toMatchObject({
      ok: true,
      degraded: true,
      message: 'running since 2026-11-28 09:15:02 UTC, health check starting',
    });
    expect(await check('db')).toMatchObject({
      ok: false,
      error:
        'the container is running but unhealthy (3 failed checks in a row): pg_isready: /var/run/postgresql:5432 - no response',
      data: { health: 'unhealthy' },
    });
  });

  it('is down for a container that exited, restarts or does not exist', async () => {
    const fake = await engine();
    const check = (container: string) => probeDirectly(docker, { dockerHost: fake.dockerHost, container });
    expect(await check('batch')).toMatchObject({
      ok: false,
      error: 'the container exited with code 137, killed for lack of memory at 2026-11-28 10:00:03 UTC',
      data: { exitCode: 137 },
    });
    expect(await check('cache')).toMatchObject({
      ok: false,
      error: 'the container is restarting (last exit code 1, 12 restarts)',
    });
    expect(await check('gone')).toEqual({ ok: false, error: 'no such container "gone": No such container: gone' });
    // By id, or its short form, as docker ps shows it.
    expect(await check(ID.slice(0, 12))).toMatchObject({ ok: true, data: { container: 'web' } });
  });

  it('speaks to the Engine API over TCP', async () => {
    const fake = await engine({ tcp: true });
    expect(await probeDirectly(docker, { dockerHost: fake.dockerHost, container: 'api' })).toMatchObject({
      ok: true,
      data: { health: 'healthy' },
    });
    expect(
      await probeDirectly(docker, { dockerHost: `http://127.0.0.1:${fake.port}`, container: 'web' }),
    ).toMatchObject({ ok: true });
  });

  it('says when there is no socket, or the API answers something else', async () => {
    expect(await probeDirectly(docker, { dockerHost: 'unix:///nonexistent/docker.sock', container: 'web' })).toEqual({
      ok: false,
      error: 'no Docker socket at /nonexistent/docker.sock (is Docker running, and is this its socket?)',
    });
    const broken = await engine({
      respond: (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"layer does not exist"}');
        return true;
      },
    });
    expect(await probeDirectly(docker, { dockerHost: broken.dockerHost, container: 'web' })).toEqual({
      ok: false,
      error: 'the Docker API answered HTTP 500: layer does not exist',
    });
  });

  it('stops reading an answer larger than 1 MiB', async () => {
    const fake = await startDockerEngineFake(CONTAINERS, {
      respond: (_req, res) => {
        sendEndlessBody(res, 'application/json');
        return true;
      },
    });
    const { result } = await checkAgainst(fake, docker, { dockerHost: fake.dockerHost, container: 'web' }, 3000);
    expect(result).toEqual({ ok: false, error: 'unexpected response: more than 1 MiB' });
  });

  it('times out on an API that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(
      hole,
      docker,
      { dockerHost: `tcp://127.0.0.1:${hole.port}`, container: 'web' },
      300,
    );
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
  });

  it('refuses the unix socket and private addresses under deny, asking nothing', async () => {
    const fake = await engine();
    const refused = await runThrough(
      docker,
      { dockerHost: fake.dockerHost, container: 'web' },
      1500,
      PUBLIC_TARGETS_ONLY,
    );
    expect(refused).toEqual({
      ok: false,
      error: `refused: ${fake.socketPath} is a unix socket on this machine, not a public address; this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)`,
    });
    const tcp = await engine({ tcp: true });
    expect(
      await runThrough(docker, { dockerHost: tcp.dockerHost, container: 'web' }, 1500, PUBLIC_TARGETS_ONLY),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect([...fake.requests, ...tcp.requests]).toEqual([]);
  });

  it('names the field that is wrong', () => {
    const issues = (config: Record<string, unknown>) =>
      docker.config.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    const hostMessage = 'expected unix:///path/to/docker.sock, tcp://host:port, http://host:port or https://host:port';
    expect(issues({ dockerHost: 'ssh://user@host', container: 'web' })).toEqual([['dockerHost', hostMessage]]);
    expect(issues({ dockerHost: 'unix://docker.sock', container: 'web' })).toEqual([['dockerHost', hostMessage]]);
    expect(issues({ container: 'web/../../images' })).toEqual([['container', 'expected a container name or id']]);
    expect(docker.config.parse({ container: 'web' }).dockerHost).toBe('unix:///var/run/docker.sock');
  });
});
