// A panel server's planned restarts: its active schedules (GET /api/client/servers/{identifier}/schedules) with a task
// that restarts, stops or kills it (a power action, or a console command such as `restart`), as recurrence slots.
import { z } from 'zod';
import { MAX_DURATION_MIN, MAX_SLOTS, type RecurrenceSlot, recurrenceSlotSchema } from '../../domain/recurrence.js';
import type { TargetGuard } from '../../net/target-guard.js';
import { panelGet } from './panel-api.js';

/** Power signals that take the server down for a while; `start` alone does not. */
const DOWN_SIGNALS = new Set(['restart', 'stop', 'kill']);
/** Console commands that stop or restart a game server (Minecraft `stop`, Rust `restart`, Source `quit`, …). */
const DOWN_COMMAND = /^\/?(restart|stop|quit|shutdown)\b/i;

const cronField = z.string().trim().min(1).max(100);

const taskSchema = z.object({
  attributes: z.object({
    sequence_id: z.number().int(),
    action: z.string().max(50),
    payload: z.string().max(10_000).nullish(),
    time_offset: z.number().int().min(0).max(86_400).nullish(),
  }),
});

const scheduleSchema = z.object({
  object: z.literal('server_schedule'),
  attributes: z.object({
    id: z.number().int(),
    name: z.string().max(191),
    cron: z.object({
      minute: cronField,
      hour: cronField,
      day_of_month: cronField,
      // Panels before Pterodactyl 1.0 have no month field.
      month: cronField.default('*'),
      day_of_week: cronField,
    }),
    is_active: z.boolean(),
    relationships: z.object({ tasks: z.object({ data: z.array(taskSchema).max(200) }) }).optional(),
  }),
});

const listSchema = z.object({ object: z.literal('list'), data: z.array(scheduleSchema).max(1000) });

type Schedule = z.output<typeof scheduleSchema>['attributes'];

/** The slots a server's restarts occupy: the panel's cron in `timezone`, lasting the restart and the tasks before it. */
export interface RestartPlan {
  slots: RecurrenceSlot[];
  /** The names of the schedules the slots come from. */
  schedules: string[];
}

/** Reads one server's schedules; `error` when the panel would not tell (no `schedule.read` permission, unreachable). */
export async function readRestartPlan(
  panel: { panelUrl: string; apiKey: string; guard: TargetGuard },
  identifier: string,
  options: { timezone: string; restartMinutes: number },
): Promise<RestartPlan | { error: string }> {
  const path = `/api/client/servers/${encodeURIComponent(identifier)}/schedules`;
  const answer = await panelGet(panel.panelUrl, panel.apiKey, panel.guard, path);
  if ('error' in answer) return { error: `the panel's schedules could not be read: ${answer.error}` };
  if (answer.status !== 200) return { error: `the panel answered HTTP ${answer.status} for the server's schedules` };
  const parsed = listSchema.safeParse(answer.json);
  if (!parsed.success) return { error: "the panel's answer is not the client API's schedule list" };
  return restartPlan(
    parsed.data.data.map((s) => s.attributes),
    options,
  );
}

/**
 * Active schedules with a task that takes the server down, one slot each (the same cron and length once), in a stable
 * order so that applying again compares equal; at most MAX_SLOTS. A cron the recurrence does not read is left out.
 */
export function restartPlan(schedules: Schedule[], options: { timezone: string; restartMinutes: number }): RestartPlan {
  const slots = new Map<string, { slot: RecurrenceSlot; name: string }>();
  for (const schedule of [...schedules].sort((a, b) => a.id - b.id)) {
    if (!schedule.is_active) continue;
    const offsetSec = downOffsetSec(schedule);
    if (offsetSec === null) continue;
    const { minute, hour, day_of_month, month, day_of_week } = schedule.cron;
    const durationMin = Math.min(options.restartMinutes + Math.ceil(offsetSec / 60), MAX_DURATION_MIN);
    const parsed = recurrenceSlotSchema.safeParse({
      cron: `${minute} ${hour} ${day_of_month} ${month} ${day_of_week}`,
      timezone: options.timezone,
      durationMin,
    });
    if (!parsed.success) continue;
    const id = JSON.stringify(parsed.data);
    if (!slots.has(id)) slots.set(id, { slot: parsed.data, name: schedule.name });
  }
  const chosen = [...slots.values()].slice(0, MAX_SLOTS);
  return { slots: chosen.map((c) => c.slot), schedules: chosen.map((c) => c.name) };
}

/** Seconds from the schedule's start to its last task that takes the server down (offsets add up); null if none does. */
function downOffsetSec(schedule: Schedule): number | null {
  const tasks = [...(schedule.relationships?.tasks.data ?? [])]
    .map((t) => t.attributes)
    .sort((a, b) => a.sequence_id - b.sequence_id);
  let elapsed = 0;
  let found: number | null = null;
  for (const task of tasks) {
    elapsed += task.time_offset ?? 0;
    const payload = (task.payload ?? '').trim();
    const down =
      (task.action === 'power' && DOWN_SIGNALS.has(payload.toLowerCase())) ||
      (task.action === 'command' && DOWN_COMMAND.test(payload));
    if (down) found = elapsed;
  }
  return found;
}
