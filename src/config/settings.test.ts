import { describe, expect, it } from 'vitest';
import { readSettings } from './settings.js';

describe('settings from the environment', () => {
  it('has documented defaults', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './data', sqliteSync: 'full', concurrency: 256, heapGrowthPercent: 50, youngGenerationMb: 4, pageCacheMb: 64 });
  });

  it('reads each variable and treats an empty one as unset', () => {
    const settings = readSettings({ PORT: '9000', WARDEN_HEAP_GROWTH_PERCENT: '0', WARDEN_SQLITE_SYNC: 'normal', WARDEN_CONFIG: '', WARDEN_PAGE_CACHE_MB: '16' });
    expect(settings).toMatchObject({ port: 9000, heapGrowthPercent: 0, sqliteSync: 'normal', configFile: undefined, pageCacheMb: 16 });
    expect(() => readSettings({ WARDEN_PAGE_CACHE_MB: '0' })).toThrow('WARDEN_PAGE_CACHE_MB: expected an integer from 1 to 65536, got "0"');
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
    expect(problems({ PORT: 'abc', WARDEN_CONCURRENCY: '1.5', WARDEN_PUSH_RATE: 'fast', WARDEN_METRICS_PORT: '0', WARDEN_LIVE_MAX: '1e3' })).toEqual([
      '  - PORT: expected a port number from 0 to 65535, got "abc"',
      '  - WARDEN_CONCURRENCY: expected an integer from 1 to 10000, got "1.5"',
      '  - WARDEN_PUSH_RATE: expected a number from 0.01 to 100000, got "fast"',
      '  - WARDEN_LIVE_MAX: expected an integer from 1 to 10000000, got "1e3"',
      '  - WARDEN_METRICS_PORT: expected a port number from 1 to 65535, got "0"',
    ]);
    expect(problems({ PORT: '-1' })).toEqual(['  - PORT: expected a port number from 0 to 65535, got "-1"']);
    expect(readSettings({ PORT: ' 8081 ', WARDEN_PUSH_RATE: '.5' })).toMatchObject({ port: 8081, security: { pushPerSecond: 0.5 } });
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
    expect(() => readSettings({ WARDEN_SMTP_TENANTS: 'allow' })).toThrow('WARDEN_SMTP_TENANTS: expected auto, confirm, trust, deny');
  });
});
