// The contract every monitor type implements: its config schema, where it may run, and the probe itself.
import { z } from 'zod';
import type { MonitorType, RunOn } from '../domain/monitor-type.js';
import type { NetContext } from '../net/context.js';

/** What a probe runs with: its deadline and the target guard (net/context.ts). */
export type ProbeContext = NetContext;

export interface ProbeResult {
  ok: boolean;
  latencyMs?: number;
  /** A short human summary, e.g. "12/100 players, 1.21.4". */
  message?: string;
  /** Why the check failed, in words a server owner understands. */
  error?: string;
  /** Live data shown on status pages: players, maxPlayers, version, motd, … */
  data?: Record<string, unknown>;
  /** The check passed but the monitor should show as degraded (e.g. fewer players than `minPlayers`). */
  degraded?: boolean;
}

export type ProbeFn<Config> = (config: Config, ctx: ProbeContext) => Promise<ProbeResult>;

export interface ProbeDefinition<Schema extends z.ZodType = z.ZodType> {
  id: MonitorType;
  label: string;
  /** Allowed places, the first being the default. */
  runsOn: readonly [RunOn, ...RunOn[]];
  config: Schema;
  /** Config fields holding secrets: sent to the monitor's relay, never shown by the API, pages or logs. */
  secrets: readonly string[];
  /**
   * Config fields that say where the probe connects, and so where the secrets go (url, host, port, …). A change of any
   * of them must come with every secret sent again in full: "[redacted]" keeps a stored secret only while they stay.
   */
  targets: readonly string[];
  /** Null for push-only types, whose results arrive as heartbeats. */
  probe: ProbeFn<z.output<Schema>> | null;
}

/**
 * A probe over a client library (pg, mysql2) that is loaded on the type's first check,
 * before its clock starts, not when the registry is: loaded with it, they took ~130 ms of the 370 ms of CPU of
 * `warden monitors list` (and of every start), for monitors most installations never have. A load that fails is
 * tried again at the next check.
 */
export function withLibrary<Library, Config>(
  load: () => Promise<Library>,
  probe: (library: Library) => ProbeFn<Config>,
): ProbeFn<Config> {
  let ready: Promise<ProbeFn<Config>> | undefined;
  return async (config, ctx) => {
    ready ??= load().then(probe, (error: unknown) => {
      ready = undefined;
      throw error;
    });
    return (await ready)(config, ctx);
  };
}

/** The places a probe connects to when its file names none: most types dial a `host` and a `port`. */
const HOST_AND_PORT = ['host', 'port'] as const;

/**
 * A monitor type as its file declares it, saying only what differs from the usual: `runsOn` may be left out by a type
 * that runs wherever a probe can, `secrets` by a type whose only secret is its `password` field or that has none, and
 * `targets` by a type that connects to its `host` and `port` (a config without both fields must name its targets).
 */
export type ProbeDeclaration<Schema extends z.ZodType> = Omit<
  ProbeDefinition<Schema>,
  'runsOn' | 'secrets' | 'targets'
> &
  Partial<Pick<ProbeDefinition<Schema>, 'runsOn' | 'secrets'>> &
  ('host' | 'port' extends keyof z.output<Schema>
    ? Partial<Pick<ProbeDefinition<Schema>, 'targets'>>
    : Pick<ProbeDefinition<Schema>, 'targets'>);

export function defineProbe<Schema extends z.ZodType>(declaration: ProbeDeclaration<Schema>): ProbeDefinition<Schema> {
  return {
    ...declaration,
    runsOn: declaration.runsOn ?? ['edge', 'relay'],
    secrets: declaration.secrets ?? (fieldsOf(declaration.config).includes('password') ? ['password'] : []),
    targets: declaration.targets ?? HOST_AND_PORT,
  };
}

/** The fields of a config schema (refinements keep the object's shape). */
function fieldsOf(config: z.ZodType): string[] {
  return config instanceof z.ZodObject ? Object.keys(config.shape) : [];
}
