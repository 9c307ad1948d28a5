// How each Kuma table's cells are typed when read (foreign-sqlite.ts's CellKind per column), and which tables exist.
import type { CellKind } from './foreign-sqlite.js';
import type {
  KumaCustomDomainRow,
  KumaDockerHostRow,
  KumaIncidentRow,
  KumaMaintenanceRow,
  KumaMonitorRow,
  KumaNotificationRow,
  KumaPageGroupMonitorRow,
  KumaPageGroupRow,
  KumaStatusPageRow,
} from './kuma-rows.js';

/** Every table this reader reads. */
export const KUMA_TABLES = [
  'monitor',
  'heartbeat',
  'tag',
  'monitor_tag',
  'status_page',
  'group',
  'monitor_group',
  'status_page_cname',
  'incident',
  'maintenance',
  'monitor_maintenance',
  'maintenance_status_page',
  'notification',
  'monitor_notification',
  'knex_migrations',
  'docker_host',
] as const;

export type Kinds<Row> = { readonly [K in keyof Row]-?: CellKind };

export const MONITOR: Kinds<KumaMonitorRow> = {
  id: 'id',
  name: 'text!',
  type: 'text!',
  active: 'bool',
  parent: 'number',
  weight: 'number',
  description: 'text',
  url: 'text',
  hostname: 'text',
  port: 'number',
  interval: 'number',
  timeout: 'number',
  maxretries: 'number',
  retry_interval: 'number',
  resend_interval: 'number',
  accepted_statuscodes_json: 'text',
  ignore_tls: 'bool',
  upside_down: 'bool',
  maxredirects: 'number',
  method: 'text',
  body: 'text',
  headers: 'text',
  http_body_encoding: 'text',
  auth_method: 'text',
  basic_auth_user: 'text',
  basic_auth_pass: 'text',
  bearer_token: 'text',
  oauth_client_id: 'text',
  tls_cert: 'text',
  proxy_id: 'number',
  cache_bust: 'bool',
  expiry_notification: 'bool?',
  keyword: 'text',
  invert_keyword: 'bool',
  json_path: 'text',
  json_path_operator: 'text',
  expected_value: 'text',
  dns_resolve_type: 'text',
  dns_resolve_server: 'text',
  conditions: 'text',
  game: 'text',
  gamedig_given_port_only: 'bool?',
  gamedig_token: 'text',
  push_token: 'text',
  smtp_security: 'text',
  expected_tls_alert: 'text',
  domain_expiry_notification: 'bool?',
  packet_size: 'number',
  ping_count: 'number',
  database_connection_string: 'text',
  database_query: 'text',
  docker_container: 'text',
  docker_host: 'number',
  grpc_url: 'text',
  grpc_service_name: 'text',
  grpc_method: 'text',
  grpc_body: 'text',
  grpc_metadata: 'text',
  grpc_enable_tls: 'bool',
  mqtt_topic: 'text',
  mqtt_username: 'text',
  mqtt_password: 'text',
  mqtt_success_message: 'text',
  mqtt_check_type: 'text',
  mqtt_websocket_path: 'text',
  rabbitmq_nodes: 'text',
  rabbitmq_username: 'text',
  rabbitmq_password: 'text',
  ws_subprotocol: 'text',
  ws_ignore_sec_websocket_accept_header: 'bool',
};

export const DOCKER_HOST: Kinds<KumaDockerHostRow> = {
  id: 'id',
  name: 'text',
  docker_type: 'text',
  docker_daemon: 'text',
};

export const STATUS_PAGE: Kinds<KumaStatusPageRow> = {
  id: 'id',
  slug: 'text!',
  title: 'text!',
  description: 'text',
  footer_text: 'text',
  custom_css: 'text',
  published: 'bool',
  password: 'text',
  icon: 'text',
  analytics_id: 'text',
};

export const PAGE_GROUP: Kinds<KumaPageGroupRow> = {
  id: 'id',
  status_page_id: 'id',
  name: 'text!',
  public: 'bool',
  weight: 'number!',
};

export const PAGE_GROUP_MONITOR: Kinds<KumaPageGroupMonitorRow> = {
  group_id: 'id',
  monitor_id: 'id',
  weight: 'number!',
};

export const CUSTOM_DOMAIN: Kinds<KumaCustomDomainRow> = { status_page_id: 'id', domain: 'text!' };

export const INCIDENT: Kinds<KumaIncidentRow> = {
  id: 'id',
  status_page_id: 'number',
  title: 'text!',
  content: 'text!',
  style: 'text',
  created_date: 'text',
  last_updated_date: 'text',
  pin: 'bool',
  active: 'bool',
};

export const MAINTENANCE: Kinds<KumaMaintenanceRow> = {
  id: 'id',
  title: 'text!',
  description: 'text',
  active: 'bool',
  strategy: 'text!',
  start_date: 'text',
  end_date: 'text',
  timezone: 'text',
  cron: 'text',
  duration: 'number',
};

export const NOTIFICATION: Kinds<KumaNotificationRow> = {
  id: 'id',
  name: 'text',
  active: 'bool',
  is_default: 'bool',
  config: 'text',
};
