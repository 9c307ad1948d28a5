// What the API's verbs need: the database, the bus that tells runners and page caches about a change, and the clock.
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import type { Db } from '../store/connect.js';

export interface ServiceDeps {
  db: Db;
  bus: Bus;
  clock: Clock;
}
