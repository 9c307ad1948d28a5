// PostgreSQL claims due deliveries with FOR UPDATE SKIP LOCKED: processes sharing the database each take other rows.
import type { DeliveryClaimer } from '../../notification-statements.js';
import { claimDueDeliveries } from '../../notification-statements.js';

export const postgresDeliveryClaimer: DeliveryClaimer = (db, now, limit, leaseMs, skipChannelIds) =>
  claimDueDeliveries(db, now, limit, leaseMs, true, skipChannelIds);
