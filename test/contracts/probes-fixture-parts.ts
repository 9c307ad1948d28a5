// The parts of the probe contract suite's fixtures: what a fixture is, the secrets the fakes echo, and the targets
// configs aim at.
import type { BlackHole } from '../fakes/black-holes.js';

export interface Target {
  host: string;
  port: number;
}

/** A fake that echoes a type's secrets back, and configs holding those secrets that make it do so. */
export interface SecretEcho {
  configs: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface ProbeFixture {
  /** A server that takes the probe's traffic and never answers; null for a push-only type, which is never probed. */
  blackHole: (() => Promise<BlackHole>) | null;
  /** A config as a user writes it, defaults left out, aimed at `target`. */
  example(target: Target): Record<string, unknown>;
  /** More configs that must read back as stored: other modes, optional fields. */
  moreExamples?: Record<string, unknown>[];
  /** Work a first check would otherwise spend its timeout on. */
  warmUp?(): Promise<void>;
  /** Required for every type whose definition lists secrets. */
  secretEcho?(): Promise<SecretEcho>;
}

/**
 * A secret with a quote and a backslash, which JSON escapes, so that a scrubber searching JSON text for it misses it;
 * at most 32 characters, so a panel can echo it as a server state.
 */
export const SECRET = 's3cr"et\\Key-42';
/** Rust compares its password with the raw request path: this one travels unencoded. */
export const PATH_SECRET = 'R4st-Pa$$word!';

/** A private CA's certificate (a public one: no key goes with it), as a tls monitor's `ca` holds it. */
export const PANEL_CA = `-----BEGIN CERTIFICATE-----
MIIBiTCCAS+gAwIBAgIJfOzmaT4UeEWNMAoGCCqGSM49BAMCMBsxGTAXBgNVBAMT
EEV4YW1wbGUgUGFuZWwgQ0EwHhcNMjYxMTI0MDY1MDI5WhcNNDYwMTAxMDAwMDAw
WjAbMRkwFwYDVQQDExBFeGFtcGxlIFBhbmVsIENBMFkwEwYHKoZIzj0CAQYIKoZI
zj0DAQcDQgAEiVp3FMMUJS63HyyHKCHFCRLHL35S9AnzjUe8X5iAxwxwiDwwMjKs
Dfec6ZjsV0KfjhA1HCZc8uYfQ07Yx8Hs16NcMFowDAYDVR0TAQH/BAIwADAOBgNV
HQ8BAf8EBAMCBaAwHQYDVR0lBBYwFAYIKwYBBQUHAwEGCCsGAQUFBwMCMBsGA1Ud
EQQUMBKCEEV4YW1wbGUgUGFuZWwgQ0EwCgYIKoZIzj0EAwIDSAAwRQIhALqIvONM
1Jz4GJygCIcEX6oEhyihvhMVe4o/c1FJNJeCAiBi0muVowNTveBjmq8Oa6za/A8+
QPOggvMmHWSJOBniLg==
-----END CERTIFICATE-----
`;

export const gameServer = ({ host, port }: Target) => ({ host, port });
export const httpBase = ({ host, port }: Target) => `http://${host}:${port}`;
