import { describe, expect, it } from 'vitest';
import { readSettings, SETTING_NAMES } from './settings.js';

describe('settings from the environment', () => {
  it('has documented defaults', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: './data',
      sqliteSync: 'full',
      concurrency: 256,
      heapGrowthPercent: 50,
      youngGenerationMb: 4,
      pageCacheMb: 64,
    });
  });

  it('reads each variable and treats an empty one as unset', () => {
    const settings = readSettings({
      PORT: '9000',
      WARDEN_HEAP_GROWTH_PERCENT: '0',
      WARDEN_SQLITE_SYNC: 'normal',
      WARDEN_CONFIG: '',
      WARDEN_PAGE_CACHE_MB: '16',
    });
    expect(settings).toMatchObject({
      port: 9000,
      heapGrowthPercent: 0,
      sqliteSync: 'normal',
      configFile: undefined,
      pageCacheMb: 16,
    });
    expect(() => readSettings({ WARDEN_PAGE_CACHE_MB: '0' })).toThrow(
      'WARDEN_PAGE_CACHE_MB: expected an integer from 1 to 65536, got "0"',
    );
  });

  it('lists every invalid variable by name', () => {
    let message = '';
    try {
      readSettings({ PORT: 'eighty', WARDEN_HEAP_GROWTH_PERCENT: '-5', WARDEN_SQLITE_SYNC: 'off' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^invalid environment:/);
    for (const name of ['PORT', 'WARDEN_HEAP_GROWTH_PERCENT', 'WARDEN_SQLITE_SYNC']) expect(message).toContain(name);
  });

  it('says which variable holds a number that is not one, what it expects and what it got', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        readSettings(env);
      } catch (error) {
        return (error as Error).message.split('\n').slice(1);
      }
      throw new Error('expected the settings to be refused');
    };
    expect(
      problems({
        PORT: 'abc',
        WARDEN_CONCURRENCY: '1.5',
        WARDEN_PUSH_RATE: 'fast',
        WARDEN_METRICS_PORT: '0',
        WARDEN_LIVE_MAX: '1e3',
      }),
    ).toEqual([
      '  - PORT: expected a port number from 0 to 65535, got "abc"',
      '  - WARDEN_CONCURRENCY: expected an integer from 1 to 10000, got "1.5"',
      '  - WARDEN_PUSH_RATE: expected a number from 0.01 to 100000, got "fast"',
      '  - WARDEN_LIVE_MAX: expected an integer from 1 to 10000000, got "1e3"',
      '  - WARDEN_METRICS_PORT: expected a port number from 1 to 65535, got "0"',
    ]);
    expect(problems({ PORT: '-1' })).toEqual(['  - PORT: expected a port number from 0 to 65535, got "-1"']);
    expect(readSettings({ PORT: ' 8081 ', WARDEN_PUSH_RATE: '.5' })).toMatchObject({
      port: 8081,
      security: { pushPerSecond: 0.5 },
    });
  });

  it('says for every variable what it expected and what it got, never repeating a secret', () => {
    // Any text is taken as it is (a path, a name, a host): nothing to refuse.
    const anyText = [
      'HOST',
      'WARDEN_DATA_DIR',
      'DATABASE_URL',
      'DATABASE_SCHEMA',
      'WARDEN_CONFIG',
      'WARDEN_RDAP_BOOTSTRAP',
      'WARDEN_OIDC_CLIENT_ID',
      'WARDEN_OIDC_CLIENT_SECRET',
    ];
    const wrong: Record<string, string> = {
      PORT: 'abc',
      WARDEN_SQLITE_SYNC: 'bogus',
      WARDEN_BASE_URL: 'status.example.com',
      WARDEN_CHECK_RETENTION_DAYS: '0',
      WARDEN_BUCKET_RETENTION_DAYS: 'forever',
      WARDEN_CONCURRENCY: '0',
      WARDEN_API_RATE_LIMIT: 'lots',
      WARDEN_HEAP_GROWTH_PERCENT: '-1',
      WARDEN_YOUNG_GENERATION_MB: '2048',
      WARDEN_PAGE_CACHE_MB: 'big',
      WARDEN_FAST_PATH: 'yes',
      WARDEN_CODE_CACHE: 'off',
      WARDEN_TICK_SHAPE_PIN: 'no',
      WARDEN_LOCAL_SETUP: 'true',
      WARDEN_TRUST_PROXY: 'true',
      WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: '0',
      WARDEN_PUSH_RATE: 'fast',
      WARDEN_PUSH_BURST: '0',
      WARDEN_LIVE_PER_CLIENT: 'x',
      WARDEN_LIVE_MAX: '0',
      WARDEN_PROBE_PRIVATE_TARGETS: 'maybe',
      WARDEN_CHANGE_POLL_MS: '1',
      WARDEN_DNS_SERVERS: 'dns.example',
      LOG_LEVEL: 'loud',
      LOG_FORMAT: 'xml',
      LOG_REQUESTS: 'on',
      WARDEN_METRICS_TOKEN: 'short-secret',
      WARDEN_METRICS_PORT: '99999',
      WARDEN_SMTP_URL: 'http://user:hunter2@mail.example',
      WARDEN_SMTP_FROM: 'not an address',
      WARDEN_SMTP_TENANTS: 'allow',
      REDIS_URL: 'http://:hunter2@redis.example',
      WARDEN_INSTANCE_ID: 'a b',
      WARDEN_REDIS_PREFIX: 'a/b',
      WARDEN_LEASE_TTL_MS: '10',
      WARDEN_SIGNUP: 'anyone',
      WARDEN_OIDC_ISSUER: 'issuer',
      WARDEN_OIDC_NAME: 'x'.repeat(61),
    };
    expect([...Object.keys(wrong), ...anyText].sort()).toEqual([...SETTING_NAMES].sort());
    for (const [name, value] of Object.entries(wrong)) {
      // The SMTP pair is checked together: the sender given with the URL, and the other way round.
      const env =
        name === 'WARDEN_SMTP_URL'
          ? { [name]: value, WARDEN_SMTP_FROM: 'status@example.com' }
          : name === 'WARDEN_SMTP_FROM'
            ? { [name]: value, WARDEN_SMTP_URL: 'smtp://mail.example' }
            : { [name]: value };
      let message = '';
      try {
        readSettings(env);
      } catch (error) {
        message = (error as Error).message;
      }
      const line =
        message.split('\n').find((l) => l.startsWith(`  - ${name}`)) ?? `(no line for ${name} in: ${message})`;
      expect(line, name).toMatch(new RegExp(`^  - ${name}(\\[\\d+\\])?: expected .+, got .+`));
      expect(line, name).not.toContain('hunter2');
      expect(line, name).not.toContain('short-secret');
    }
    expect(() => readSettings({ WARDEN_SQLITE_SYNC: 'bogus' })).toThrow(
      'WARDEN_SQLITE_SYNC: expected full or normal, got "bogus"',
    );
    expect(() => readSettings({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL: expected fatal, error, warn, info, debug, trace or silent, got "loud"',
    );
  });

  it('reads the security settings, with the defaults docs/security.md lists', () => {
    expect(readSettings({}).security).toEqual({
      trustProxy: false,
      loginAttemptsPerMinute: 10,
      pushPerSecond: 10,
      pushBurst: 20,
      liveConnectionsPerClient: 50,
      liveConnectionsMax: undefined,
      probePrivateTargets: 'auto',
      smtpTenants: 'auto',
      changePollMs: 1000,
    });
    const set = readSettings({
      WARDEN_TRUST_PROXY: '1',
      WARDEN_LOGIN_ATTEMPTS_PER_MINUTE: '5',
      WARDEN_PUSH_RATE: '0.5',
      WARDEN_PUSH_BURST: '3',
      WARDEN_LIVE_PER_CLIENT: '7',
      WARDEN_LIVE_MAX: '900',
      WARDEN_PROBE_PRIVATE_TARGETS: 'deny',
      WARDEN_SMTP_TENANTS: 'deny',
      WARDEN_CHANGE_POLL_MS: '250',
      WARDEN_DNS_SERVERS: '192.0.2.53, 192.0.2.54:5353,[2001:db8::53]:53',
    });
    expect(set.security).toEqual({
      trustProxy: true,
      loginAttemptsPerMinute: 5,
      pushPerSecond: 0.5,
      pushBurst: 3,
      liveConnectionsPerClient: 7,
      liveConnectionsMax: 900,
      probePrivateTargets: 'deny',
      smtpTenants: 'deny',
      changePollMs: 250,
    });
    expect(set.dnsServers).toEqual(['192.0.2.53', '192.0.2.54:5353', '[2001:db8::53]:53']);
    expect(() => readSettings({ WARDEN_PROBE_PRIVATE_TARGETS: 'maybe' })).toThrow(/WARDEN_PROBE_PRIVATE_TARGETS/);
    expect(() => readSettings({ WARDEN_DNS_SERVERS: 'dns.example' })).toThrow(/WARDEN_DNS_SERVERS/);
    expect(() => readSettings({ WARDEN_SMTP_TENANTS: 'allow' })).toThrow(
      'WARDEN_SMTP_TENANTS: expected auto, confirm, trust, deny',
    );
  });
});
