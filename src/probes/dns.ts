// DNS records: resolve a name, optionally through a given resolver, and check an expected answer.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import { timedOutAfter } from '../net/network-error.js';
import { lookupHost } from '../net/socket-exchange.js';
import { TARGET_REFUSED } from '../net/target-guard.js';
import { host } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;

export const dnsConfig = z
  .object({
    hostname: host(),
    recordType: z.enum(DNS_RECORD_TYPES).default('A'),
    expected: z.string().min(1).max(1024).optional().describe('A value that must be among the answers.'),
    resolver: z
      .string()
      .regex(/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.:_-]+)(?::\d{1,5})?$/, { error: 'expected host or host:port' })
      .optional()
      .describe("Resolver address (host or host:port); the system's resolvers when absent."),
  })
  .strict();

export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** What one check may keep of the answers, however many the server sent. */
export const DNS_LIMITS = { answers: 20, answerChars: 512 } as const;

export const dns = defineProbe({
  id: 'dns',
  label: 'DNS record',
  config: dnsConfig,
  targets: ['hostname', 'resolver'],
  probe: async (config, ctx): Promise<ProbeResult> => {
    const { signal, timeoutMs } = ctx;
    const timedOut = timedOutAfter(timeoutMs);
    if (signal.aborted) return { ok: false, error: timedOut };
    // Two tries (c-ares lengthens the second) fit the monitor's timeout; the signal cancels whatever is left.
    const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 3)), tries: 2 });
    const cancel = () => resolver.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      // The resolver is the one address this probe sends packets to: it is checked, then set as an address.
      if (config.resolver) resolver.setServers([await resolverAddress(config.resolver, ctx)]);
      // A cancel that landed while the resolver's own name was looked up does not reach the next query.
      if (signal.aborted) return { ok: false, error: timedOut };
      const started = performance.now();
      const answers = await query(resolver, config.hostname, config.recordType);
      const latencyMs = Math.round(performance.now() - started);
      if (answers.length === 0) return { ok: false, error: `no ${config.recordType} records for ${config.hostname}` };
      const data = {
        answers: answers.slice(0, DNS_LIMITS.answers).map((answer) => answer.text.slice(0, DNS_LIMITS.answerChars)),
      };
      const shown = data.answers.slice(0, 5).join(', ') + (answers.length > 5 ? `, … (${answers.length})` : '');
      const expected = config.expected === undefined ? undefined : normalize(config.recordType, config.expected);
      if (expected !== undefined && !answers.some((answer) => answer.forms.includes(expected))) {
        return {
          ok: false,
          error: `expected ${JSON.stringify(config.expected)} is not among the answers: ${shown}`,
          data,
        };
      }
      return { ok: true, latencyMs, message: `${config.recordType} ${shown}`, data };
    } catch (error) {
      return {
        ok: false,
        error: signal.aborted ? timedOut : describeDnsError(error, config.hostname, config.recordType, timedOut),
      };
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  },
});

/** One answer: how it is shown, and every normalized form an expected value may take to match it. */
interface Answer {
  text: string;
  forms: string[];
}

async function query(resolver: Resolver, hostname: string, type: DnsRecordType): Promise<Answer[]> {
  const forms = (text: string, ...others: string[]): Answer => ({
    text,
    forms: [text, ...others].map((form) => normalize(type, form)),
  });
  switch (type) {
    case 'A':
      return (await resolver.resolve4(hostname)).map((address) => forms(address));
    case 'AAAA':
      return (await resolver.resolve6(hostname)).map((address) => forms(canonicalIpv6(address)));
    case 'CNAME':
      return (await resolver.resolveCname(hostname)).map((name) => forms(dnsName(name)));
    case 'NS':
      return (await resolver.resolveNs(hostname)).map((name) => forms(dnsName(name)));
    case 'MX':
      return (await resolver.resolveMx(hostname)).map((mx) =>
        forms(`${mx.priority} ${dnsName(mx.exchange)}`, mx.exchange),
      );
    case 'TXT':
      // A TXT record is split into chunks of at most 255 bytes; its value is the chunks joined.
      return (await resolver.resolveTxt(hostname)).map((chunks) => forms(chunks.join('')));
    case 'SRV':
      return (await resolver.resolveSrv(hostname)).map((srv) =>
        forms(`${srv.priority} ${srv.weight} ${srv.port} ${dnsName(srv.name)}`, srv.name),
      );
    case 'CAA':
      return (await resolver.resolveCaa(hostname)).map((caa) => {
        const [tag = '', value = ''] = Object.entries(caa).find(([key]) => key !== 'critical') ?? [];
        return forms(`${caa.critical} ${tag} "${value}"`, `${tag} ${value}`, String(value));
      });
  }
}

/**
 * The form answers and expected values are compared in: names lowercase without their trailing dot, IPv6 in its
 * canonical short form, quotes and extra spaces dropped. TXT values are data, so only surrounding quotes go.
 */
export function normalize(type: DnsRecordType, value: string): string {
  const trimmed = value.trim();
  if (type === 'TXT') return /^".*"$/s.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
  if (type === 'AAAA') return canonicalIpv6(trimmed);
  return trimmed
    .replaceAll('"', '')
    .split(/\s+/)
    .map((token) => dnsName(token))
    .join(' ');
}

function dnsName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** "2001:DB8:0::1" and "2001:db8::1" are one address; the URL parser writes IPv6 in its canonical form. */
function canonicalIpv6(address: string): string {
  if (isIP(address) !== 6) return address.toLowerCase();
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * Turns "host", "host:port", "[v6]:port" or a bare IPv6 into what setServers takes, resolving a name first as every
 * probe's host is (each of its addresses, like a literal, checked by the probe-target guard).
 */
async function resolverAddress(text: string, ctx: ProbeContext): Promise<string> {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const hostPort = /^([^:]+):(\d+)$/.exec(text);
  let host = bracketed?.[1] ?? (isIP(text) ? text : (hostPort?.[1] ?? text));
  const port = bracketed?.[2] ?? (isIP(text) ? undefined : hostPort?.[2]);
  // setServers takes addresses only; the resolver's own name is looked up with the system's resolvers.
  const found = await lookupHost(host, ctx);
  if ('refused' in found) throw Object.assign(new Error(found.error), { code: TARGET_REFUSED });
  if ('error' in found) throw new Error(`cannot find the address of the resolver ${host}`);
  host = found.address;
  if (port === undefined) return host;
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

function describeDnsError(error: unknown, hostname: string, type: DnsRecordType, timedOut: string): string {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'ENOTFOUND':
      return `${hostname} does not exist (NXDOMAIN)`;
    case 'ENODATA':
      return `no ${type} records for ${hostname}`;
    case 'ESERVFAIL':
      return 'the resolver failed to answer (SERVFAIL)';
    case 'EREFUSED':
      return 'the resolver refused the query';
    case 'ENOTIMP':
      return 'the resolver does not support this query';
    case 'EBADRESP':
    case 'EFORMERR':
      return 'the resolver sent an invalid answer';
    case 'ECONNREFUSED':
      return 'connection refused by the resolver';
    case 'EBADNAME':
      return `${hostname} is not a valid DNS name`;
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return timedOut;
    case TARGET_REFUSED:
      return (error as Error).message;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
