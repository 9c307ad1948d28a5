// Docker containers: a container's state and health, from the Docker Engine API's inspect (GET /containers/{id}/json),
// on a unix socket or over TCP.
import { z } from 'zod';
import { urlHost } from '../net/hosts.js';
import { bodyJson, formatBytes, httpGet } from '../net/http-get.js';
import { checkedText } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const DOCKER_LIMITS = {
  /** Bytes of an inspect answer read: a few KiB usually, more with many mounts, labels or health log lines. */
  answerBytes: 1024 * 1024,
  /** Characters of a health check's output a result shows. */
  outputChars: 200,
} as const;

const DOCKER_HOST_MESSAGE =
  'expected unix:///path/to/docker.sock, tcp://host:port, http://host:port or https://host:port';

/** Where the Engine API answers: a unix socket's path, or the origin of an http(s) URL. */
export type DockerEndpoint = { socketPath: string } | { origin: string };

export function dockerEndpoint(dockerHost: string): DockerEndpoint | undefined {
  if (dockerHost.startsWith('unix://')) {
    const path = dockerHost.slice('unix://'.length);
    return /^\/[^\0]*$/.test(path) && path.length <= 107 ? { socketPath: path } : undefined;
  }
  let url: URL;
  try {
    url = new URL(dockerHost.replace(/^tcp:\/\//, 'http://'));
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname)
    return undefined;
  if (url.pathname !== '/' || url.search || url.hash) return undefined;
  // Docker's own defaults: 2375 in plain text, 2376 with TLS.
  const port = url.port || (url.protocol === 'https:' ? '2376' : '2375');
  return { origin: `${url.protocol}//${urlHost(url.hostname)}:${port}` };
}

export const dockerConfig = z
  .object({
    dockerHost: checkedText(DOCKER_HOST_MESSAGE, 2048, (value) => dockerEndpoint(value) !== undefined)
      .default('unix:///var/run/docker.sock')
      .describe(
        "Where the Docker Engine API answers, as DOCKER_HOST writes it: the daemon's unix socket, or tcp://host:2375.",
      ),
    container: z
      .string({ error: 'expected a container name or id' })
      .regex(/^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/, { error: 'expected a container name or id' })
      .describe('The container, by name or id.'),
  })
  .strict();

/** The parts of the Engine API's ContainerInspectResponse a check reads. */
const inspectSchema = z.object({
  Name: z.string().optional(),
  RestartCount: z.number().optional(),
  Config: z.object({ Image: z.string().optional() }).optional(),
  State: z.object({
    Status: z.string(),
    Paused: z.boolean().optional(),
    OOMKilled: z.boolean().optional(),
    ExitCode: z.number().optional(),
    Error: z.string().optional(),
    StartedAt: z.string().optional(),
    FinishedAt: z.string().optional(),
    Health: z
      .object({
        Status: z.string(),
        FailingStreak: z.number().optional(),
        Log: z
          .array(z.object({ Output: z.string().optional(), ExitCode: z.number().optional() }))
          .nullable()
          .optional(),
      })
      .optional(),
  }),
});
type Inspect = z.infer<typeof inspectSchema>;

export const docker = defineProbe({
  id: 'docker',
  label: 'Docker container',
  config: dockerConfig,
  targets: ['dockerHost'],
  probe: async (config, ctx) => {
    const endpoint = dockerEndpoint(config.dockerHost) as DockerEndpoint;
    const path = `/containers/${encodeURIComponent(config.container.replace(/^\//, ''))}/json`;
    const url = 'socketPath' in endpoint ? `http://localhost${path}` : `${endpoint.origin}${path}`;
    const answer = await httpGet({
      ...ctx,
      url,
      ...('socketPath' in endpoint ? { socketPath: endpoint.socketPath } : {}),
      headers: { accept: 'application/json' },
      maxBodyBytes: DOCKER_LIMITS.answerBytes,
    });
    if (!answer.ok) return { ok: false, error: describeFailure(answer, endpoint) };
    const { response } = answer;
    const json = bodyJson(response);
    const said =
      typeof (json as { message?: unknown } | undefined)?.message === 'string'
        ? `: ${clip((json as { message: string }).message)}`
        : '';
    if (response.status === 404)
      return { ok: false, error: `no such container ${JSON.stringify(config.container)}${said}` };
    if (response.status !== 200) return { ok: false, error: `the Docker API answered HTTP ${response.status}${said}` };
    if (response.truncated)
      return { ok: false, error: `unexpected response: more than ${formatBytes(DOCKER_LIMITS.answerBytes)}` };
    const inspect = inspectSchema.safeParse(json);
    if (!inspect.success) return { ok: false, error: 'unexpected response: not a Docker container inspect answer' };
    return judge(inspect.data, response.latencyMs);
  },
});

/** Up while running (and healthy, when the image has a health check); degraded while its health check is starting. */
function judge(inspect: Inspect, latencyMs: number): ProbeResult {
  const { State: state } = inspect;
  const health = state.Health?.Status;
  const data: Record<string, unknown> = {
    container: inspect.Name?.replace(/^\//, ''),
    image: inspect.Config?.Image,
    status: state.Status,
    ...(health ? { health } : {}),
    ...(inspect.RestartCount !== undefined ? { restartCount: inspect.RestartCount } : {}),
    ...(state.StartedAt ? { startedAt: state.StartedAt } : {}),
  };
  switch (state.Status) {
    case 'running': {
      if (health === 'unhealthy') {
        const last = state.Health?.Log?.at(-1);
        const output = last?.Output?.trim() ? `: ${clip(last.Output.trim())}` : '';
        return {
          ok: false,
          error: `the container is running but unhealthy (${state.Health?.FailingStreak ?? 0} failed checks in a row)${output}`,
          data,
        };
      }
      const since = state.StartedAt ? ` since ${state.StartedAt.slice(0, 19).replace('T', ' ')} UTC` : '';
      if (health === 'starting')
        return { ok: true, degraded: true, latencyMs, message: `running${since}, health check starting`, data };
      return { ok: true, latencyMs, message: `running${since}${health === 'healthy' ? ', healthy' : ''}`, data };
    }
    case 'exited': {
      const oom = state.OOMKilled ? ', killed for lack of memory' : '';
      return {
        ok: false,
        error: `the container exited with code ${state.ExitCode ?? '?'}${oom}${state.FinishedAt ? ` at ${state.FinishedAt.slice(0, 19).replace('T', ' ')} UTC` : ''}`,
        data: { ...data, exitCode: state.ExitCode },
      };
    }
    case 'restarting':
      return {
        ok: false,
        error: `the container is restarting (last exit code ${state.ExitCode ?? '?'}, ${inspect.RestartCount ?? 0} restarts)`,
        data,
      };
    case 'paused':
      return { ok: false, error: 'the container is paused', data };
    case 'created':
      return { ok: false, error: 'the container was created but never started', data };
    default:
      return {
        ok: false,
        error: `the container is ${clip(state.Status)}${state.Error ? `: ${clip(state.Error)}` : ''}`,
        data,
      };
  }
}

function describeFailure(failure: { error: string; code?: string }, endpoint: DockerEndpoint): string {
  if (!('socketPath' in endpoint)) return failure.error;
  if (failure.code === 'ENOENT')
    return `no Docker socket at ${endpoint.socketPath} (is Docker running, and is this its socket?)`;
  if (failure.code === 'EACCES')
    return `permission denied on ${endpoint.socketPath} (Warden's user must be in the socket's group, usually docker)`;
  if (failure.code === 'ECONNREFUSED') return `nothing listens on ${endpoint.socketPath} (is Docker running?)`;
  return failure.error;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > DOCKER_LIMITS.outputChars ? `${line.slice(0, DOCKER_LIMITS.outputChars)}…` : line;
}
