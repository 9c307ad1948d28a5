// SQLite claims due deliveries in one write statement: it holds the database's one write lock, so no two claim a row.
import type { DeliveryClaimer } from '../../notification-statements.js';
import { claimDueDeliveries } from '../../notification-statements.js';

export const sqliteDeliveryClaimer: DeliveryClaimer = (db, now, limit, leaseMs, skipChannelIds) =>
  claimDueDeliveries(db, now, limit, leaseMs, false, skipChannelIds);
