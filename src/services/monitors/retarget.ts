// A monitor pointed somewhere else takes its secrets along only when they are sent again: "[redacted]" cannot follow.
import type { FieldIssue } from '../../domain/errors.js';
import { formatIssuePath } from '../../domain/issue-path.js';
import type { ProbeDefinition } from '../../probes/probe.js';
import { REDACTED } from './view.js';

/** Where a monitor's secrets go: its config as stored and as it would be, and the relay that runs it (null: the server). */
export interface SecretDestination {
  config: Record<string, unknown>;
  relayId: string | null;
}

/**
 * The secrets that must be sent again, each named by its path (`config.password`): when a target field of the type
 * changes, or the monitor moves onto another relay (which receives its secrets), a secret kept from storage — sent
 * back as "[redacted]" or left out of the patch — would go to a destination the caller may not have been trusted with.
 * Moving to the server itself (`relayId: null`) takes nothing anywhere new.
 */
export function retargetIssues(
  definition: Pick<ProbeDefinition, 'secrets' | 'targets'>,
  current: SecretDestination,
  next: SecretDestination,
  patchConfig: Record<string, unknown> | undefined,
  noun = 'monitor',
): FieldIssue[] {
  const changes = definition.targets.filter((field) => !sameValue(current.config[field], next.config[field]));
  if (next.relayId !== null && next.relayId !== current.relayId) changes.push('relay');
  if (changes.length === 0) return [];
  const moved = `the ${noun}'s ${changes.join(', ')} ${changes.length === 1 ? 'changes' : 'change'}`;
  return definition.secrets
    .filter((field) => current.config[field] !== undefined && keptFromStorage(patchConfig?.[field]))
    .map((field) => ({
      path: `config.${field}`,
      message: `${moved}: send ${field} again in full ("${REDACTED}" keeps a secret only while the target stays the same)`,
    }));
}

/** A secret the patch does not set: left out, or sent back as "[redacted]". */
export function keptFromStorage(value: unknown): boolean {
  return value === undefined || value === REDACTED;
}

/** Target values are JSON (strings, numbers, booleans); their JSON text compares them whatever their shape. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** A shallow merge patch: null removes a field; a secret sent back as "[redacted]" keeps its stored value. */
export function mergeConfig(
  stored: Record<string, unknown>,
  changes: Record<string, unknown>,
  secrets: readonly string[],
): Record<string, unknown> {
  const out = { ...stored };
  for (const [field, value] of Object.entries(changes)) {
    if (value === REDACTED && secrets.includes(field)) continue;
    if (value === null) delete out[field];
    else out[field] = value;
  }
  return out;
}

/**
 * The stored config with a PATCH's `config` merged in and checked by the type's schema: the new config, or the stored
 * one with the schema's complaints (named `config.<field>`) added to `issues`.
 */
export function patchedConfig(
  schema: {
    safeParse(
      value: unknown,
    ):
      | { success: true; data: unknown }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  stored: Record<string, unknown>,
  changes: Record<string, unknown> | undefined,
  secrets: readonly string[],
  issues: FieldIssue[],
): Record<string, unknown> {
  if (changes === undefined) return stored;
  const parsed = schema.safeParse(mergeConfig(stored, changes, secrets));
  if (parsed.success) return parsed.data as Record<string, unknown>;
  issues.push(
    ...parsed.error.issues.map((i) => ({ path: formatIssuePath(['config', ...i.path]), message: i.message })),
  );
  return stored;
}
