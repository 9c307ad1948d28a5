// The answers of panel discovery and apply, as the API documents them.
import { z } from 'zod';

const proposedMonitorSchema = z.object({
  key: z.string(),
  name: z.string(),
  type: z
    .string()
    .describe('minecraft-java, minecraft-bedrock, source (Source games and Rust), fivem, tcp; pterodactyl.'),
  config: z
    .record(z.string(), z.unknown())
    .describe("The monitor's config; the resource monitor's key is added on apply."),
  tags: z.array(z.string()),
});

export const panelDiscoverySchema = z.object({
  proposals: z.array(
    z.object({
      identifier: z.string().describe("The server's short identifier on the panel."),
      name: z.string(),
      guessedFrom: z
        .enum(['egg', 'image', 'name'])
        .nullable()
        .describe('Where the game type was read from; null: no match, a tcp check of the default allocation.'),
      monitor: proposedMonitorSchema.nullable().describe('Null when the server has no allocation.'),
      resourceMonitor: proposedMonitorSchema,
      component: z.object({ key: z.string(), name: z.string(), monitor: z.string() }),
    }),
  ),
  truncated: z.boolean().describe('True when the key sees more than 500 servers: only the first 500 are proposed.'),
});

const goneServerSchema = z.object({
  key: z.string().describe('The key apply gave the server, `ptero-<identifier>`.'),
  monitors: z.array(z.string()).describe('Keys of its monitors apply made (game and resource monitor).'),
  component: z.string().nullable().describe('Key of its component on `page`, if apply made one there.'),
  restarts: z.string().nullable().describe('Key of its restart window on `page`, if any.'),
});

const outcome = z.enum(['created', 'updated', 'unchanged', 'skipped']);

export const panelApplyReportSchema = z.object({
  servers: z.array(
    z.object({
      identifier: z.string(),
      name: z.string(),
      monitor: outcome.nullable().describe('Null when the server has no allocation.'),
      resourceMonitor: outcome.nullable().describe('Null unless `resources` was true.'),
      component: outcome.nullable().describe('Null when the server stopped before it (see `error`).'),
      restarts: z
        .enum(['created', 'updated', 'unchanged', 'skipped', 'removed'])
        .nullable()
        .describe(
          'The restart window `ptero-<identifier>-restarts` on `page`; removed: the restart schedules are gone. Null: no restart schedule (and no window), `restarts` false, or the schedules could not be read (see `error`).',
        ),
      error: z
        .string()
        .nullable()
        .describe(
          'Why this server stopped part way (say, an ip_alias that is no host name), or why its schedules could not be read; the others still apply.',
        ),
    }),
  ),
  truncated: z.boolean(),
  gone: z
    .array(goneServerSchema)
    .describe(
      'Servers of this panel apply made objects for that the panel no longer lists, left in place (`prune` was false, or the listing was truncated or empty).',
    ),
  removed: z.array(goneServerSchema).describe('The same, deleted by `prune`.'),
});
