// The API's view of a component: its place on the page and the monitor whose state it shows.
import { z } from 'zod';
import { joinSettingSchema } from '../../domain/join.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import type { Component } from '../../domain/page.js';
import { pick } from '../view-fields.js';

export const componentViewSchema = z.object({
  id: z.string(),
  key: z.string().describe('Stable key within the page; incidents and maintenance name components by it.'),
  name: z.string(),
  description: z.string().nullable(),
  group: z.string().nullable(),
  order: z.number().int().describe('Position on the page, lowest first.'),
  monitorId: z.string().nullable(),
  monitorKey: z.string().nullable().describe('Key of the monitor whose state the component shows.'),
  join: joinSettingSchema,
  ...ownershipFields(),
});

export type ComponentView = z.infer<typeof componentViewSchema>;

/** `monitorKeys` maps monitor ids to keys. */
export function componentView(component: Component, monitorKeys: ReadonlyMap<string, string>): ComponentView {
  return {
    ...pick(component, ['id', 'key', 'name', 'description', 'group', 'order', 'monitorId', 'join']),
    monitorKey: component.monitorId === null ? null : (monitorKeys.get(component.monitorId) ?? null),
    ...ownershipOf(component),
  };
}

/** The components an incident or window names, ids and keys, in page order (`componentKeys` is in page order). */
export function affectedComponents(
  ids: readonly string[],
  componentKeys: ReadonlyMap<string, string>,
): { componentIds: string[]; components: string[] } {
  const named = new Set(ids);
  const ordered = [...componentKeys].filter(([id]) => named.has(id));
  return { componentIds: ordered.map(([id]) => id), components: ordered.map(([, key]) => key) };
}
