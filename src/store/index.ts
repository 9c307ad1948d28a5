// The storage seam as the rest of Warden sees it: the Store interface and its repositories, types only.
// Opening a store is the composition roots' business (src/main.ts, src/cli/session.ts): they import ./open-store.js.
// The reader of Uptime Kuma's database has its own entry (./uptime-kuma.js); its rows' types are here.

export type * from './foreign/kuma-rows.js';
export type { StoreOptions } from './open-store.js';
export type * from './store.js';
