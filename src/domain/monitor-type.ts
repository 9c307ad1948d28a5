// The monitor types (docs/monitors.md lists each) and the places a monitor can run.

export const MONITOR_TYPES = [
  'minecraft-java',
  'minecraft-bedrock',
  'source',
  'fivem',
  'rust-webrcon',
  'rcon',
  'pterodactyl',
  'gamedig',
  'discord',
  'http',
  'tcp',
  'tls',
  'dns',
  'heartbeat',
  'ping',
  'domain-expiry',
  // Databases and message brokers.
  'postgres',
  'mysql',
  'redis',
  'nats',
  'mqtt',
  'amqp',
  'mongodb',
  // Services: SSH, UDP, mail, WebSocket, gRPC, Docker.
  'ssh',
  'udp',
  'websocket',
  'smtp',
  'imap',
  'pop3',
  'grpc',
  'docker',
] as const;

export type MonitorType = (typeof MONITOR_TYPES)[number];

export const RUN_ON = ['edge', 'relay', 'push'] as const;
export type RunOn = (typeof RUN_ON)[number];

export const MONITOR_STATES = ['up', 'degraded', 'down', 'unknown'] as const;
export type MonitorState = (typeof MONITOR_STATES)[number];

export const CHECK_SOURCES = ['edge', 'relay', 'push'] as const;
export type CheckSource = (typeof CHECK_SOURCES)[number];
