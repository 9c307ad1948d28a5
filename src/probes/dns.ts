// DNS records: resolve a name, optionally through a given resolver, and check an expected answer.
import { z } from 'zod';
import { host } from './fields.js';
import { defineProbe } from './probe.js';

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

export const dns = defineProbe({
  id: 'dns',
  label: 'DNS record',
  runsOn: ['edge', 'relay'],
  config: dnsConfig,
  secrets: [],
  // Implemented with its wire protocol in the probes issue; until then a run reports it plainly.
  probe: async () => ({ ok: false, error: 'this monitor type is not implemented yet' }),
});
