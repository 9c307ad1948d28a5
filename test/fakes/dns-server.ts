// A fake authoritative DNS server on dns2 (UDP, 127.0.0.1) answering from a zone given by the test, and one that never answers.
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { Packet, UDPServer } from 'dns2';

/** Record data in dns2's shapes, by type. */
export interface DnsRecords {
  A?: { address: string }[];
  AAAA?: { address: string }[];
  CNAME?: { domain: string }[];
  NS?: { ns: string }[];
  MX?: { exchange: string; priority: number }[];
  TXT?: { data: string | string[] }[];
  SRV?: { priority: number; weight: number; port: number; target: string }[];
  CAA?: { flags: number; tag: string; value: string }[];
}

/** Names (lowercase, no trailing dot) to their records; `rcode` answers that error instead (2 SERVFAIL, 5 REFUSED). */
export type DnsZone = Record<string, DnsRecords & { rcode?: number }>;

export interface FakeDnsServer {
  /** "127.0.0.1:port", as the dns monitor's resolver field takes it. */
  address: string;
  port: number;
  /** Names asked, newest last. */
  queries: { name: string; type: string }[];
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const TYPE_NAMES = new Map<number, keyof DnsRecords>(
  (['A', 'AAAA', 'CNAME', 'NS', 'MX', 'TXT', 'SRV', 'CAA'] as const).map((name) => [Packet.TYPE[name], name]),
);

interface Question {
  name: string;
  type: number;
}

interface Response {
  header: { rcode: number; aa: number };
  answers: Record<string, unknown>[];
}

/** Answers every question from `zone`; unknown names get NXDOMAIN, known names without the type an empty answer. */
export async function startDnsFake(zone: DnsZone): Promise<FakeDnsServer> {
  const queries: FakeDnsServer['queries'] = [];
  const server = new UDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request) as unknown as Response;
    const question = request.questions[0] as Question | undefined;
    const name = question?.name.toLowerCase().replace(/\.$/, '') ?? '';
    const type = question ? TYPE_NAMES.get(question.type) : undefined;
    queries.push({ name, type: type ?? String(question?.type) });
    const entry = zone[name];
    response.header.aa = 1;
    if (!entry) response.header.rcode = NXDOMAIN;
    else if (entry.rcode !== undefined) response.header.rcode = entry.rcode;
    else if (question && type)
      for (const record of entry[type] ?? [])
        response.answers.push({ name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60, ...record });
    send(response as never);
  });
  await server.listen(0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A UDP port that takes queries and never answers: only the monitor's timeout ends the check. */
export async function startSilentDnsFake(): Promise<FakeDnsServer> {
  const socket = createSocket('udp4');
  const queries: FakeDnsServer['queries'] = [];
  socket.on('message', () => queries.push({ name: '?', type: '?' }));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
