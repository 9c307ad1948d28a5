// The compose files hold together without Docker. deploy/compose.yaml: one Warden on SQLite with its volume, and a
// `postgres` profile whose Warden's environment is a valid PostgreSQL configuration. deploy/compose.cluster.yaml: each
// Warden service's environment is a valid cluster configuration with its own instance id, the load balancer's
// upstreams are those services, and deploy/warden.yaml applies.
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
  profiles?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: string[];
  volumes?: string[];
}

/** Compose's `${NAME:-default}` with the defaults, as `docker compose config` would resolve it with nothing set. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

interface ComposeFile {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}
const readCompose = (file: string) => parse(readFileSync(deploy(file), 'utf8'), { merge: true }) as ComposeFile;
const envOf = (service: Service) =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, withDefaults(String(v))]));
/** Every Warden is built from the one image recipe, with the repository as the context (compose paths are relative to deploy/). */
const BUILD = { context: '..', dockerfile: 'deploy/Dockerfile' };

describe('deploy/compose.yaml', () => {
  const compose = readCompose('compose.yaml');
  const { warden, postgres } = compose.services;
  const pgWarden = compose.services['warden-postgres'];

  it('runs one Warden by default, and PostgreSQL with a Warden on it under the postgres profile', () => {
    const byDefault = Object.entries(compose.services).filter(([, service]) => !service.profiles);
    expect(byDefault.map(([name]) => name)).toEqual(['warden']);
    expect(postgres?.profiles).toEqual(['postgres']);
    expect(pgWarden?.profiles).toEqual(['postgres']);
    expect(postgres?.image).toMatch(/^postgres:/);
    expect(Object.keys(compose.volumes).sort()).toEqual(['warden-data', 'warden-postgres']);
  });

  it('keeps the default Warden on SQLite in the warden-data volume, published on 8080', () => {
    const settings = readSettings({ ...envOf(warden as Service), WARDEN_DATA_DIR: '/data' });
    expect(settings.databaseUrl).toBeUndefined();
    expect(settings.cluster).toBeUndefined();
    expect(settings.baseUrl).toBe('http://localhost:8080');
    expect(warden?.volumes).toContain('warden-data:/data');
    expect(warden?.ports).toEqual(['${WARDEN_PORT:-8080}:8080']);
    expect(warden?.build).toEqual(BUILD);
  });

  it('gives the profile’s Warden a valid PostgreSQL configuration, after PostgreSQL is healthy, on another port', () => {
    const settings = readSettings(envOf(pgWarden as Service));
    expect(settings.databaseUrl).toBe('postgres://warden:warden@postgres:5432/warden');
    expect(settings.cluster).toBeUndefined();
    expect(pgWarden?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(pgWarden?.ports).toEqual(['${WARDEN_POSTGRES_PORT:-8081}:8080']);
    expect(pgWarden?.build).toEqual(BUILD);
    expect(postgres?.environment).toMatchObject({ POSTGRES_DB: 'warden', POSTGRES_USER: 'warden' });
    expect(postgres?.volumes).toEqual(['warden-postgres:/var/lib/postgresql/data']);
  });

  it('asks each Warden for /readyz on the port the image listens on', () => {
    for (const service of [warden, pgWarden]) {
      const test = service?.healthcheck?.test ?? [];
      expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
      expect(test[3]).toContain("'http://127.0.0.1:8080/readyz'");
    }
  });
});

describe('deploy/compose.cluster.yaml', () => {
  const compose = readCompose('compose.cluster.yaml');
  const services = compose.services;
  const wardens = Object.keys(services).filter((name) => /^warden-/.test(name));

  it('runs PostgreSQL, Redis, a setup job, three Warden processes and a load balancer', () => {
    expect(Object.keys(services).sort()).toEqual([
      'lb',
      'postgres',
      'redis',
      'setup',
      'warden-a',
      'warden-b',
      'warden-c',
    ]);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.lb?.image).toMatch(/^caddy:/);
    expect(compose.volumes).toHaveProperty('pgdata');
  });

  it('gives every Warden process a valid cluster environment and its own instance id', () => {
    const ids = new Set<string>();
    for (const name of wardens) {
      const service = services[name] as Service;
      expect(service.build).toEqual(BUILD);
      const settings = readSettings(envOf(service));
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

  it('asks each Warden process for /readyz, and the one-shot setup job for nothing', () => {
    for (const name of wardens) {
      const test = (services[name] as Service).healthcheck?.test ?? [];
      expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
      expect(test[3]).toContain("'http://127.0.0.1:8080/readyz'");
    }
    expect((services.setup as Service).healthcheck).toEqual({ disable: true });
  });

  it('balances over exactly the Warden services, with readiness checks, and publishes one port', () => {
    const caddyfile = readFileSync(deploy('Caddyfile.cluster'), 'utf8');
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    expect(upstreams).toEqual(wardens.map((name) => `${name}:8080`));
    expect(caddyfile).toContain('health_uri /readyz');
    expect(services.lb?.ports).toEqual(['${WARDEN_PORT:-8080}:80']);
    expect(services.lb?.volumes).toEqual(['./Caddyfile.cluster:/etc/caddy/Caddyfile:ro']);
  });

  it('is a project of its own, apart from deploy/compose.yaml’s', () => {
    expect(compose.name).toBe('warden-cluster');
    expect(readCompose('compose.yaml').name).toBe('warden');
  });
});
