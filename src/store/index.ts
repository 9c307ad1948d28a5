// The storage seam as the rest of Warden sees it: the Store interface and its repositories, types only.
// Opening a store is the composition roots' business (src/main.ts, src/cli/session.ts): they import ./open-store.js.
// Also the one reader of another tool's database (`warden import uptime-kuma`), which only src/store may open.

export * from './foreign/uptime-kuma.js';
export type { StoreOptions } from './open-store.js';
export type * from './store.js';
