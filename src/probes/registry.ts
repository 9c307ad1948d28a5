// Every monitor type, keyed by id; a type missing here fails to compile.
import type { MonitorType } from '../domain/monitor-type.js';
import { amqp } from './amqp.js';
import { discord } from './discord.js';
import { dns } from './dns.js';
import { docker } from './docker.js';
import { domainExpiry } from './domain-expiry.js';
import { fivem } from './fivem.js';
import { gamedig } from './gamedig.js';
import { grpc } from './grpc.js';
import { heartbeat } from './heartbeat.js';
import { http } from './http.js';
import { imap } from './imap.js';
import { minecraftBedrock } from './minecraft-bedrock.js';
import { minecraftJava } from './minecraft-java.js';
import { mongodb } from './mongodb.js';
import { mqtt } from './mqtt.js';
import { mysqlProbe } from './mysql.js';
import { nats } from './nats.js';
import { ping } from './ping.js';
import { pop3 } from './pop3.js';
import { postgres } from './postgres.js';
import type { ProbeDefinition } from './probe.js';
import { pterodactyl } from './pterodactyl.js';
import { rcon } from './rcon.js';
import { redis } from './redis.js';
import { rustWebrcon } from './rust-webrcon.js';
import { smtp } from './smtp.js';
import { source } from './source.js';
import { ssh } from './ssh.js';
import { tcp } from './tcp.js';
import { tls } from './tls.js';
import { udp } from './udp.js';
import { websocket } from './websocket.js';

export const probeRegistry = {
  'minecraft-java': minecraftJava,
  'minecraft-bedrock': minecraftBedrock,
  source,
  fivem,
  'rust-webrcon': rustWebrcon,
  rcon,
  pterodactyl,
  gamedig,
  discord,
  http,
  tcp,
  tls,
  dns,
  heartbeat,
  ping,
  'domain-expiry': domainExpiry,
  // Databases and message brokers.
  postgres,
  mysql: mysqlProbe,
  redis,
  nats,
  mqtt,
  amqp,
  mongodb,
  // Services: SSH, UDP, mail, WebSocket, gRPC, Docker.
  ssh,
  udp,
  websocket,
  smtp,
  imap,
  pop3,
  grpc,
  docker,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own config type; callers go through probeDefinition().
} satisfies Record<MonitorType, ProbeDefinition<any>>;

export function probeDefinition(type: MonitorType): ProbeDefinition {
  return probeRegistry[type] as unknown as ProbeDefinition;
}
