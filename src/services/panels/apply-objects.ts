// One panel server's monitor or component brought to what the panel says, through the usual write verbs; an object
// apply did not make (another writer, another type, no `pterodactyl` tag) is left as it is and reported `skipped`.
import type { z } from 'zod';
import { createComponent, updateComponent } from '../components/write.js';
import { organizationOf } from '../context.js';
import type { monitorCreateSchema } from '../monitors/schema.js';
import { updateMonitor } from '../monitors/update.js';
import { createMonitor } from '../monitors/write.js';
import { requirePage } from '../pages/read.js';
import type { PanelContext } from './discover.js';
import { PANEL_TAG, type ProposedMonitor } from './proposals.js';

/** skipped: an object with the key exists that apply did not make (or warden.yaml manages, or of another type). */
export type ApplyOutcome = 'created' | 'updated' | 'unchanged' | 'skipped';

export async function applyMonitor(ctx: PanelContext, proposed: ProposedMonitor): Promise<ApplyOutcome> {
  const current = await ctx.store.monitors.findByKey(organizationOf(ctx), proposed.key);
  if (!current) {
    await createMonitor(ctx, proposed as z.input<typeof monitorCreateSchema>);
    return 'created';
  }
  if (current.managedBy !== 'api' || !current.tags.includes(PANEL_TAG) || current.type !== proposed.type)
    return 'skipped';
  // A monitor an older apply made lacks the panel's tag: it gets it (the user's own tags stay).
  const missingTags = proposed.tags.filter((tag) => !current.tags.includes(tag));
  const changed =
    current.name !== proposed.name ||
    missingTags.length > 0 ||
    Object.entries(proposed.config).some(([field, value]) => current.config[field] !== value);
  if (!changed) return 'unchanged';
  const tags = missingTags.length > 0 ? { tags: [...current.tags, ...missingTags] } : {};
  await updateMonitor(ctx, { id: current.id, name: proposed.name, config: proposed.config, ...tags });
  return 'updated';
}

export async function applyComponent(
  ctx: PanelContext,
  slug: string,
  proposed: { key: string; name: string; monitor: string | null },
): Promise<ApplyOutcome> {
  const page = await requirePage(ctx, slug);
  const current = (await ctx.store.components.list(page.id)).find((c) => c.key === proposed.key);
  const monitor = proposed.monitor === null ? undefined : proposed.monitor;
  if (!current) {
    await createComponent(ctx, { slug, key: proposed.key, name: proposed.name, ...(monitor ? { monitor } : {}) });
    return 'created';
  }
  if (current.managedBy !== 'api') return 'skipped';
  const monitorId = monitor ? ((await ctx.store.monitors.findByKey(organizationOf(ctx), monitor))?.id ?? null) : null;
  if (current.name === proposed.name && current.monitorId === monitorId) return 'unchanged';
  await updateComponent(ctx, { slug, id: current.id, name: proposed.name, monitor: monitor ?? null });
  return 'updated';
}
