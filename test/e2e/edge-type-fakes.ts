// Fakes for every monitor type that runs on the edge, each listening on 127.0.0.1 (dashboard-monitors-edge-types.test.ts
// creates one monitor of each through the dashboard's form): game servers and their APIs, a website, DNS and RDAP,
// databases and brokers, the service types, and TLS with a private CA, with what the form needs to point at each.
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { startA2sServer } from '../fakes/a2s-server.js';
import { startAmqpFake } from '../fakes/amqp-server.js';
import { startFakeBedrockServer } from '../fakes/bedrock-server.js';
import { certificateAuthority, serverCertificate } from '../fakes/certificates.js';
import { startDnsFake } from '../fakes/dns-server.js';
import { startDockerEngineFake } from '../fakes/docker-engine.js';
import { startEchoServer } from '../fakes/echo-server.js';
import { pterodactylServer, startDiscordFake, startFivemFake, startPterodactylFake } from '../fakes/game-api-fakes.js';
import { startGrpcServer } from '../fakes/grpc-server.js';
import { startWebsiteFake } from '../fakes/http-fakes.js';
import { startFakeJavaServer } from '../fakes/minecraft-java-server.js';
import { startMongoFake } from '../fakes/mongodb-server.js';
import { startMqttFake } from '../fakes/mqtt-broker.js';
import { startMysqlFake } from '../fakes/mysql-server.js';
import { startNatsFake } from '../fakes/nats-server.js';
import { startPostgresFake } from '../fakes/postgres-server.js';
import { startRconServer } from '../fakes/rcon-server.js';
import { inDays, startRdapServer } from '../fakes/rdap-server.js';
import { startRustWebrconServer } from '../fakes/rust-webrcon-server.js';
import {
  dovecotImap,
  dovecotPop3,
  startLineServer,
  startScriptedTcp,
  startUdpResponder,
} from '../fakes/service-servers.js';
import { startSmtpFake } from '../fakes/smtp-server.js';
import { startTlsServer } from '../fakes/tls-servers.js';
import { startWsFake } from '../fakes/ws-server.js';

const GUILD = '111111111111111111';
const PANEL_KEY = 'ptlc_dashboardPanelKey';
export const RCON_PASSWORD = 'rcon-secret';
const RUST_PASSWORD = 'rust-secret';

/** What the form needs, field label by field label, to point each type at its fake. */
export type FormInput = Record<string, string>;

export interface EdgeTypeFakes {
  /** By monitor type. */
  inputs: Record<string, FormInput>;
  close(): Promise<void>;
}

export async function startEdgeTypeFakes(): Promise<EdgeTypeFakes> {
  const closers: (() => Promise<unknown>)[] = [];
  const inputs: Record<string, FormInput> = {};
  const java = await startFakeJavaServer({
    kind: 'status',
    status: { version: { name: '1.21.4', protocol: 769 }, players: { online: 12, max: 100 }, description: 'Lobby' },
  });
  const bedrock = await startFakeBedrockServer({
    kind: 'pong',
    advertisement: 'MCPE;Warden Test;766;1.21.50;3;20;1234567890123;Level;Survival;1;19132;19133;',
  });
  const a2s = await startA2sServer();
  const fivem = await startFivemFake();
  const rust = await startRustWebrconServer({ password: RUST_PASSWORD });
  const rcon = await startRconServer({ password: RCON_PASSWORD });
  const panel = await startPterodactylFake({ apiKey: PANEL_KEY, servers: { d3aac109: pterodactylServer() } });
  const discord = await startDiscordFake({
    botToken: 'unused',
    guilds: {
      [GUILD]: {
        name: 'Warden',
        widgetEnabled: true,
        presenceCount: 7,
        memberCount: 20,
        instantInvite: null,
        botIsMember: false,
      },
    },
  });
  const site = await startWebsiteFake();
  const dns = await startDnsFake({ 'example.test': { A: [{ address: '192.0.2.7' }] } });
  const rdap = await startRdapServer({ 'example.test': { expiresAt: inDays(200) } });
  // Databases and brokers: fakes speaking each protocol (the real servers have tests of their own).
  const databases = {
    postgres: await startPostgresFake({ password: 'pg-password' }),
    mysql: await startMysqlFake(),
    redis: await startEchoServer(),
    mongodb: await startMongoFake(),
    mqtt: await startMqttFake(),
    amqp: await startAmqpFake(),
    nats: await startNatsFake({ user: 'monitor', pass: 'nats-password' }),
  };
  for (const database of Object.values(databases)) closers.push(database.close);
  // A TLS port whose certificate a private CA signed: the form's CA field makes it trusted.
  const authority = await certificateAuthority();
  const panelTls = await startTlsServer(await serverCertificate({ issuer: authority }));
  closers.push(panelTls.close);
  // The service types: SSH, UDP, WebSocket, mail over STARTTLS with the private CA, gRPC health, a Docker Engine API.
  const mailCertificate = await serverCertificate({ issuer: authority });
  const services = {
    ssh: await startScriptedTcp((socket) => socket.write('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n')),
    udp: await startUdpResponder((datagram) => [datagram]),
    websocket: await startWsFake((socket) => socket.on('message', (data) => socket.send(data))),
    smtp: await startSmtpFake({ tls: mailCertificate }),
    imap: await startLineServer(dovecotImap(mailCertificate)),
    pop3: await startLineServer(dovecotPop3(mailCertificate)),
    grpc: await startGrpcServer({ '': 'SERVING' }),
    docker: await startDockerEngineFake([
      { name: 'web', id: 'f'.repeat(64), state: { Status: 'running', Running: true } },
    ]),
  };
  closers.push(...Object.values(services).map((service) => service.close));
  const tcp = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  closers.push(
    java.close,
    bedrock.close,
    a2s.close,
    fivem.close,
    rust.close,
    rcon.close,
    panel.close,
    discord.close,
    site.close,
    dns.close,
    rdap.close,
  );
  const at = (port: number) => ({ Host: '127.0.0.1', Port: String(port) });
  Object.assign(inputs, {
    'minecraft-java': at(java.port),
    'minecraft-bedrock': at(bedrock.port),
    source: at(a2s.port),
    fivem: at(fivem.port),
    'rust-webrcon': { ...at(rust.port), Password: RUST_PASSWORD },
    rcon: { ...at(rcon.port), Password: RCON_PASSWORD },
    pterodactyl: { 'Panel URL': panel.url, 'Server ID': 'd3aac109', 'API key': PANEL_KEY },
    discord: { 'Guild ID': GUILD, 'API base URL': discord.apiBaseUrl },
    http: { URL: `${site.url}/ok` },
    tcp: at((tcp.address() as AddressInfo).port),
    dns: { Hostname: 'example.test', Resolver: dns.address },
    tls: { ...at(panelTls.port), CA: authority.cert },
    ping: { Host: '127.0.0.1' },
    'domain-expiry': { Domain: 'example.test', 'RDAP URL': rdap.base },
    ...Object.fromEntries(Object.entries(databases).map(([type, service]) => [type, at(service.port)])),
    ssh: at(services.ssh.port),
    udp: { ...at(services.udp.port), Payload: 'ping' },
    websocket: { URL: services.websocket.url },
    smtp: { ...at(services.smtp.port), CA: authority.cert },
    imap: { ...at(services.imap.port), CA: authority.cert },
    pop3: { ...at(services.pop3.port), CA: authority.cert },
    grpc: at(services.grpc.port),
    docker: { 'Docker host': services.docker.dockerHost, Container: 'web' },
  });
  closers.push(() => new Promise((resolve) => tcp.close(resolve)));
  return {
    inputs,
    async close() {
      for (const close of closers) await close();
    },
  };
}
