// Reads a page's maintenance windows, soonest first, or one of them.
import type { z } from 'zod';
import { componentKeysById, monitorKeysById, requireOnPage } from '../components/refs.js';
import { parseInput, readVerb, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';
import { maintenanceListInput, maintenanceRefInput } from './schema.js';
import { type MaintenanceView, maintenanceView } from './view.js';

export async function listMaintenance(
  ctx: ServiceContext,
  input: z.input<typeof maintenanceListInput>,
): Promise<MaintenanceView[]> {
  const page = await requirePage(ctx, parseInput(maintenanceListInput, input).slug);
  const [windows, components, monitors] = await Promise.all([
    ctx.store.maintenance.list(page.id),
    componentKeysById(ctx, page.id),
    monitorKeysById(ctx),
  ]);
  return windows.map((w) => maintenanceView(w, { components, monitors }, ctx.clock.now()));
}

export const getMaintenance = readVerb(maintenanceRefInput, async (ctx, { slug, id }): Promise<MaintenanceView> => {
  const { page, item } = await requireOnPage(ctx, slug, id, 'maintenance', ctx.store.maintenance.findById);
  const [components, monitors] = await Promise.all([componentKeysById(ctx, page.id), monitorKeysById(ctx)]);
  return maintenanceView(item, { components, monitors }, ctx.clock.now());
});
