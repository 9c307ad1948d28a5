// Row types: the change counter and the cluster's instances and leases.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.

export interface ChangeCounterTable {
  id: number;
  version: number;
}

export interface ClusterInstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
  /** JSON: version, address, what the instance runs. */
  info: string;
}

/** A shard of the edge monitors (`shard:000`…) or a singleton (`singleton:watchdog`), held by one instance until it lapses. */
export interface ClusterLeasesTable {
  name: string;
  holder: string | null;
  expires_at: number;
  acquired_at: number | null;
}
