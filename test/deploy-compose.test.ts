// deploy/compose.yaml holds together without Docker: it parses, each Warden service's environment is a valid cluster
// configuration with its own instance id, the load balancer's upstreams are those services, and deploy/warden.yaml applies.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfigFile } from '../src/config/load.js';
import { readSettings } from '../src/config/settings.js';

const deploy = (file: string) => fileURLToPath(new URL(`../deploy/${file}`, import.meta.url));

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: string[];
  volumes?: string[];
}

/** Compose's `${NAME:-default}` with the defaults, as `docker compose config` would resolve it with nothing set. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

const compose = parse(readFileSync(deploy('compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const wardens = Object.keys(services).filter((name) => /^warden-/.test(name));

describe('deploy/compose.yaml', () => {
  it('runs PostgreSQL, Redis, a setup job, three Warden processes and a load balancer', () => {
    expect(Object.keys(services).sort()).toEqual(['lb', 'postgres', 'redis', 'setup', 'warden-a', 'warden-b', 'warden-c']);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.lb?.image).toMatch(/^caddy:/);
    expect(compose.volumes).toHaveProperty('pgdata');
  });

  it('gives every Warden process a valid cluster environment and its own instance id', () => {
    const ids = new Set<string>();
    for (const name of wardens) {
      const service = services[name] as Service;
      expect(service.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, withDefaults(String(v))]));
      const settings = readSettings(env);
      expect(settings.databaseUrl).toMatch(/^postgres:\/\/warden:[^@]+@postgres:5432\/warden$/);
      expect(settings.cluster).toMatchObject({ redisUrl: 'redis://redis:6379', instanceId: name });
      expect(settings.security.trustProxy).toBe(true);
      ids.add(name);
      // Each waits for healthy engines and for the setup job (migrations and the configuration) to finish.
      expect(service.depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        setup: { condition: 'service_completed_successfully' },
      });
    }
    expect(ids.size).toBe(3);
  });

  it('applies deploy/warden.yaml once, from the same image, before the processes start', async () => {
    const setup = services.setup as Service;
    expect(setup.command).toEqual(['node', 'dist/cli/index.js', 'config', 'apply', '/etc/warden/warden.yaml']);
    expect(setup.volumes).toEqual(['./warden.yaml:/etc/warden/warden.yaml:ro']);
    expect(setup.environment?.WARDEN_INSTANCE_ID).toBeUndefined();
    const config = await loadConfigFile(deploy('warden.yaml'), {});
    expect(config.monitors.length).toBeGreaterThan(0);
  });

  it('balances over exactly the Warden services, with readiness checks, and publishes one port', () => {
    const caddyfile = readFileSync(deploy('Caddyfile'), 'utf8');
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    expect(upstreams).toEqual(wardens.map((name) => `${name}:8080`));
    expect(caddyfile).toContain('health_uri /readyz');
    expect(services.lb?.ports).toEqual(['${WARDEN_PORT:-8080}:80']);
    expect(services.lb?.volumes).toEqual(['./Caddyfile:/etc/caddy/Caddyfile:ro']);
  });

  it('builds from the repository’s Dockerfile, which starts `warden serve`', () => {
    const dockerfile = readFileSync(fileURLToPath(new URL('../Dockerfile', import.meta.url)), 'utf8');
    expect(dockerfile).toContain('CMD ["node", "dist/cli/index.js", "serve"]');
    expect(dockerfile).toMatch(/^FROM node:20/m);
  });
});
