// Which RDAP server answers for a domain: IANA's bootstrap registry for DNS (RFC 9224), shipped as data
// (rdap-dns.json, a copy of https://data.iana.org/rdap/dns.json) and replaceable by a newer copy at start-up
// (WARDEN_RDAP_BOOTSTRAP, docs/monitors.md#domain-expiry).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import shipped from './rdap-dns.json' with { type: 'json' };

/** The registry as probes use it: each TLD (lowercase, punycode) and the base URL of its RDAP server. */
export interface RdapBootstrap {
  /** When IANA published this copy (its `publication`). */
  publication: string;
  servers: ReadonlyMap<string, string>;
}

/** Bounds of a bootstrap file read from disk: IANA's is ~90 KB and names ~1,200 TLDs. */
export const RDAP_BOOTSTRAP_LIMITS = { fileBytes: 4 * 1024 * 1024, entries: 100_000 } as const;

const bootstrapFile = z.object({
  publication: z.string().max(100).optional(),
  services: z
    .array(z.tuple([z.array(z.string().max(253)), z.array(z.string().max(2048))]), {
      error: 'expected "services": [[["tld", …], ["https://rdap.example/", …]], …]',
    })
    .min(1, { error: 'expected at least one service' })
    .max(RDAP_BOOTSTRAP_LIMITS.entries),
});

/**
 * Reads a bootstrap document in IANA's format. An https base URL is taken over an http one (RFC 9224, section 3: an
 * answer over plain http could be altered on the way); the few registries that offer only http are asked over http.
 */
export function readBootstrap(document: unknown, source: string): RdapBootstrap {
  const parsed = bootstrapFile.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${source} is not an RDAP bootstrap file: ${issue?.path.join('.') || 'the document'}: ${issue?.message ?? 'unexpected shape'}`,
    );
  }
  const servers = new Map<string, string>();
  for (const [labels, urls] of parsed.data.services) {
    const url = urls.find((u) => u.startsWith('https://')) ?? urls.find((u) => u.startsWith('http://'));
    if (url === undefined) continue;
    const base = url.endsWith('/') ? url : `${url}/`;
    for (const label of labels) servers.set(label.toLowerCase().replace(/\.$/, ''), base);
  }
  if (servers.size === 0) throw new Error(`${source} names no http(s) RDAP server`);
  return { publication: parsed.data.publication ?? 'unknown', servers };
}

/** Reads a newer copy of IANA's file, for WARDEN_RDAP_BOOTSTRAP; throws with the reason when it is not one. */
export function loadRdapBootstrapFile(path: string): RdapBootstrap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the RDAP bootstrap file ${path}: ${(error as Error).message}`);
  }
  if (Buffer.byteLength(text) > RDAP_BOOTSTRAP_LIMITS.fileBytes)
    throw new Error(`${path} is larger than ${RDAP_BOOTSTRAP_LIMITS.fileBytes / 1024 / 1024} MiB`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  return readBootstrap(document, path);
}

let current: RdapBootstrap | undefined;

/** The registry in use: the shipped copy, unless setRdapBootstrap replaced it. Read on first use. */
export function rdapBootstrap(): RdapBootstrap {
  current ??= readBootstrap(shipped, 'the shipped RDAP bootstrap file');
  return current;
}

/** Replaces the registry for this process (the composition roots call it with WARDEN_RDAP_BOOTSTRAP's file). */
export function setRdapBootstrap(bootstrap: RdapBootstrap | undefined): void {
  current = bootstrap;
}

/**
 * The base URL of the RDAP server for a domain: the entry matching the most of its last labels (RFC 9224, section 4;
 * IANA's DNS entries are single TLDs today), or undefined when the registry names none.
 */
export function rdapBaseUrl(domain: string, bootstrap: RdapBootstrap = rdapBootstrap()): string | undefined {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length; i++) {
    const server = bootstrap.servers.get(labels.slice(i).join('.'));
    if (server !== undefined) return server;
  }
  return undefined;
}
