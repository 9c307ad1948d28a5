// Statuspage's answers as its clients read them, untyped, for the tests of src/render/statuspage.ts.
import type { Snapshot } from '../src/domain/snapshot.js';
import { renderStatuspage, type StatuspageEndpoint } from '../src/render/statuspage.js';

export const MINUTE = 60_000;

// biome-ignore lint/suspicious/noExplicitAny: the answers are read as Statuspage's clients read them, untyped.
export type Any = any;
export const view = (snapshot: Snapshot, endpoint: StatuspageEndpoint): Any =>
  JSON.parse(renderStatuspage(snapshot, endpoint).body as string);
export const componentNamed = (snapshot: Snapshot, name: string): Any =>
  view(snapshot, 'components').components.find((c: Any) => c.name === name);
