// The reader of another tool's database, `warden import uptime-kuma`'s own entry into src/store: the CLI command opens
// the file (as only composition roots open Warden's own store), and the import verbs read its rows' types from
// store/index.ts.
export {
  KUMA_READ_LIMITS,
  NotKumaDatabaseError,
  openUptimeKumaDatabase,
  parseKumaTime,
} from './foreign/uptime-kuma.js';
