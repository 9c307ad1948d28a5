// The rows `warden import uptime-kuma` reads from an Uptime Kuma database, as the reader (uptime-kuma.ts) types them:
// every column Warden's mapping reads, null when this version of Kuma's schema lacks it.
/** One monitor; every column Warden's mapping reads, null when absent from this version's schema. */
export interface KumaMonitorRow {
  id: number;
  name: string;
  type: string;
  active: boolean;
  parent: number | null;
  weight: number | null;
  description: string | null;
  url: string | null;
  hostname: string | null;
  port: number | null;
  /** Seconds between checks. */
  interval: number | null;
  /** Seconds; 0 (or absent) means 80 % of the interval. */
  timeout: number | null;
  maxretries: number | null;
  /** Seconds between checks while a monitor is pending. */
  retry_interval: number | null;
  /** Down beats between repeated notifications (0: never). */
  resend_interval: number | null;
  accepted_statuscodes_json: string | null;
  ignore_tls: boolean;
  upside_down: boolean;
  maxredirects: number | null;
  method: string | null;
  body: string | null;
  headers: string | null;
  http_body_encoding: string | null;
  auth_method: string | null;
  basic_auth_user: string | null;
  basic_auth_pass: string | null;
  bearer_token: string | null;
  oauth_client_id: string | null;
  tls_cert: string | null;
  proxy_id: number | null;
  cache_bust: boolean;
  expiry_notification: boolean | null;
  keyword: string | null;
  invert_keyword: boolean;
  json_path: string | null;
  /** 2.x; 1.23 compares with "==". */
  json_path_operator: string | null;
  expected_value: string | null;
  dns_resolve_type: string | null;
  dns_resolve_server: string | null;
  /** 2.x: a JSON array of condition expressions (DNS and others). */
  conditions: string | null;
  game: string | null;
  gamedig_given_port_only: boolean | null;
  gamedig_token: string | null;
  push_token: string | null;
  smtp_security: string | null;
  expected_tls_alert: string | null;
  /** 2.x (2025-09): warn of the domain's registration expiring (http monitors); Kuma's default is on. */
  domain_expiry_notification: boolean | null;
  /** ping: bytes per echo request (56 unless changed). */
  packet_size: number | null;
  /** 2.x ping: echo requests per check. */
  ping_count: number | null;
  /** postgres, mysql, sqlserver, mongodb, redis: a URL (or SQL Server's key=value list) with the credentials. */
  database_connection_string: string | null;
  database_query: string | null;
  docker_container: string | null;
  /** The docker_host row the container runs on. */
  docker_host: number | null;
  /** grpc-keyword: host:port. */
  grpc_url: string | null;
  grpc_service_name: string | null;
  grpc_method: string | null;
  grpc_body: string | null;
  grpc_metadata: string | null;
  grpc_enable_tls: boolean;
  mqtt_topic: string | null;
  mqtt_username: string | null;
  mqtt_password: string | null;
  mqtt_success_message: string | null;
  /** 2.x: keyword (the default), json-query or none. */
  mqtt_check_type: string | null;
  /** 2.x: the path of MQTT over WebSocket. */
  mqtt_websocket_path: string | null;
  /** 2.x rabbitmq: a JSON list of management API URLs. */
  rabbitmq_nodes: string | null;
  rabbitmq_username: string | null;
  rabbitmq_password: string | null;
  /** 2.x websocket-upgrade. */
  ws_subprotocol: string | null;
  ws_ignore_sec_websocket_accept_header: boolean;
}

/** A Docker daemon Kuma's docker monitors reach: `socket` (a path) or `tcp` (a URL). */
export interface KumaDockerHostRow {
  id: number;
  name: string | null;
  docker_type: string | null;
  docker_daemon: string | null;
}

export interface KumaTagRow {
  monitor_id: number;
  name: string;
  value: string | null;
}

export interface KumaStatusPageRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  footer_text: string | null;
  custom_css: string | null;
  published: boolean;
  password: string | null;
  icon: string | null;
  /** 1.23: google_analytics_tag_id; 2.x: analytics_id. */
  analytics_id: string | null;
}

/** A section of a status page (Kuma's `group` table), in page order. */
export interface KumaPageGroupRow {
  id: number;
  status_page_id: number;
  name: string;
  public: boolean;
  weight: number;
}

/** A monitor listed in a section of a status page (`monitor_group`). */
export interface KumaPageGroupMonitorRow {
  group_id: number;
  monitor_id: number;
  weight: number;
}

export interface KumaCustomDomainRow {
  status_page_id: number;
  domain: string;
}

export interface KumaIncidentRow {
  id: number;
  status_page_id: number | null;
  title: string;
  content: string;
  style: string | null;
  /** Milliseconds since the epoch, read from Kuma's UTC text; null when unreadable. */
  created_date: number | null;
  last_updated_date: number | null;
  pin: boolean;
  active: boolean;
}

export interface KumaMaintenanceRow {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  /** manual, single, recurring-interval, recurring-weekday, recurring-day-of-month, cron. */
  strategy: string;
  /** Local time of `timezone` ("YYYY-MM-DD HH:mm[:ss]"). */
  start_date: string | null;
  end_date: string | null;
  /** An IANA zone, "UTC", "SAME_AS_SERVER" or null (UTC). */
  timezone: string | null;
  cron: string | null;
  /** Seconds (cron strategy). */
  duration: number | null;
}

export interface KumaNotificationRow {
  id: number;
  name: string | null;
  active: boolean;
  is_default: boolean;
  /** JSON: { type, …provider fields }. */
  config: string | null;
}

export interface KumaLink {
  left: number;
  right: number;
}

/** Everything `warden import uptime-kuma` maps, except heartbeats (read per monitor, streamed). */
export interface KumaData {
  /** 2.x databases carry knex's migration table; 1.23 ones do not. */
  schema: '1.23' | '2.x';
  monitors: KumaMonitorRow[];
  tags: KumaTagRow[];
  statusPages: KumaStatusPageRow[];
  pageGroups: KumaPageGroupRow[];
  pageGroupMonitors: KumaPageGroupMonitorRow[];
  customDomains: KumaCustomDomainRow[];
  incidents: KumaIncidentRow[];
  maintenance: KumaMaintenanceRow[];
  /** maintenance id → monitor id. */
  maintenanceMonitors: KumaLink[];
  /** maintenance id → status page id. */
  maintenancePages: KumaLink[];
  notifications: KumaNotificationRow[];
  /** monitor id → notification id. */
  monitorNotifications: KumaLink[];
  /** The Docker daemons docker monitors name (docker_host). */
  dockerHosts: KumaDockerHostRow[];
}

/** One heartbeat: 0 down, 1 up, 2 pending, 3 maintenance; `ping` in milliseconds. */
export interface KumaHeartbeat {
  at: number;
  status: number;
  ping: number | null;
}

export interface KumaDatabase {
  read(): KumaData;
  /** A monitor's heartbeats at or after `since` (epoch ms), oldest first, one at a time (a database holds millions). */
  heartbeats(monitorId: number, since: number): IterableIterator<KumaHeartbeat>;
  close(): void;
}
