// Reads the components of a page of the organization, in page order.
import type { z } from 'zod';
import { parseInput, readVerb, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';
import { monitorKeysById, requireOnPage } from './refs.js';
import { componentListInput, componentRefInput } from './schema.js';
import { type ComponentView, componentView } from './view.js';

export async function listComponents(
  ctx: ServiceContext,
  input: z.input<typeof componentListInput>,
): Promise<ComponentView[]> {
  const page = await requirePage(ctx, parseInput(componentListInput, input).slug);
  const [components, monitorKeys] = await Promise.all([ctx.store.components.list(page.id), monitorKeysById(ctx)]);
  return components.map((c) => componentView(c, monitorKeys));
}

export const getComponent = readVerb(componentRefInput, async (ctx, { slug, id }): Promise<ComponentView> => {
  const { item } = await requireOnPage(ctx, slug, id, 'component', ctx.store.components.findById);
  return componentView(item, await monitorKeysById(ctx));
});
