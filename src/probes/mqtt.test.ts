// The mqtt probe against the real Mosquitto here (anonymous) with a retained message published by mqtt.js (the
// independent client), and a byte-exact fake broker for refusals, echoes, QoS 1 and long messages; plus other
// protocols, silence, a closed port and the deny policy.
import { connectAsync } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { serverCertificate } from '../../test/fakes/certificates.js';
import { startReplyServer } from '../../test/fakes/echo-server.js';
import { startMqttFake } from '../../test/fakes/mqtt-broker.js';
import { checkAgainst, closedTcpPort, leavingNothingOpen, runThrough } from '../../test/fakes/probe-runs.js';
import { describeAgainst, REAL_SERVICES, serviceAvailable } from '../../test/real-services.js';
import { timedOutAfter } from '../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { mqtt, mqttConfig } from './mqtt.js';
import { readCapError } from './session.js';

const REAL = REAL_SERVICES.mosquitto;
const available = await serviceAvailable(REAL);
const check = (config: Record<string, unknown>, timeoutMs = 2000) =>
  leavingNothingOpen(() => runThrough(mqtt, { host: REAL.host, port: REAL.port, ...config }, timeoutMs));

async function retain(topic: string, message: string): Promise<void> {
  const client = await connectAsync(`mqtt://${REAL.host}:${REAL.port}`, { reconnectPeriod: 0 });
  await client.publishAsync(topic, message, { retain: true, qos: 1 });
  await client.endAsync();
}

describeAgainst(REAL, available, () => {
  it('connects and logs in', async () => {
    expect(await check({})).toMatchObject({ ok: true, message: 'connected' });
  });

  it("compares a topic's retained message", async () => {
    await retain('warden/test/status', 'online');
    expect(await check({ topic: 'warden/test/status', expected: 'online' })).toMatchObject({
      ok: true,
      message: 'warden/test/status → online',
      data: { retained: true },
    });
    expect(await check({ topic: 'warden/test/status', expected: '/^off/' })).toMatchObject({
      ok: false,
      error: 'expected something matching /^off/, got "online"',
    });
  });

  it('times out on a topic where nothing is published', async () => {
    expect(await check({ topic: 'warden/test/silent' }, 500)).toEqual({ ok: false, error: timedOutAfter(500) });
  });
});

describe('mqtt against a fake broker', () => {
  it('sends the user name and a warden client id, and reads a message', async () => {
    const fake = await startMqttFake({ publish: 'all good' });
    const { result } = await checkAgainst(
      fake,
      mqtt,
      {
        host: '127.0.0.1',
        port: fake.port,
        username: 'probe',
        password: 'pw-Secret1',
        topic: 'a/b',
        expected: 'all good',
      },
      1000,
      'pw-Secret1',
    );
    expect(result).toMatchObject({ ok: true, message: 'a/b → all good', data: { retained: false } });
    expect(fake.connects).toEqual([{ clientId: expect.stringMatching(/^warden-[0-9a-f]+$/), username: 'probe' }]);
    // Said goodbye, so the broker logs no lost client and publishes no will.
    expect(fake.disconnects).toBe(1);
  });

  it('reads a retained message sent at QoS 1, past its packet identifier', async () => {
    const fake = await startMqttFake({ publish: 'online', publishQos: 1, retain: true });
    const config = { host: '127.0.0.1', port: fake.port, topic: 'site/status', expected: 'online' };
    const { result } = await checkAgainst(fake, mqtt, config, 1000);
    expect(result).toMatchObject({ ok: true, message: 'site/status → online', data: { retained: true } });
  });

  it('says a password needs a user name, connecting nowhere', async () => {
    const fake = await startMqttFake();
    const { result } = await checkAgainst(fake, mqtt, { host: '127.0.0.1', port: fake.port, password: 'pw-1' }, 1000);
    expect(result).toEqual({
      ok: false,
      error: 'a password needs a username (MQTT 3.1.1 sends a password only with a user name)',
    });
    expect(fake.connects).toEqual([]);
  });

  it('stops reading a message longer than a check reads', async () => {
    const fake = await startMqttFake({ publish: 'x'.repeat(1536 * 1024) });
    const { result } = await checkAgainst(fake, mqtt, { host: '127.0.0.1', port: fake.port, topic: 'big' }, 2000);
    expect(result).toEqual({ ok: false, error: readCapError() });
  });

  it('says when the server speaks another protocol', async () => {
    const web = await startReplyServer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const { result } = await checkAgainst(web, mqtt, { host: '127.0.0.1', port: web.port }, 1000);
    expect(result).toEqual({ ok: false, error: 'not an MQTT broker: its answer began "HTTP/1.1 400 Bad Request…"' });
  });

  it('is down on a wrong password, without the password', async () => {
    const fake = await startMqttFake({ returnCode: 4 });
    const { result } = await checkAgainst(
      fake,
      mqtt,
      { host: '127.0.0.1', port: fake.port, username: 'probe', password: 'wrong-Pa55' },
      1000,
      'wrong-Pa55',
    );
    expect(result).toEqual({ ok: false, error: 'the broker refused the connection: Bad username or password' });
  });

  it('is down when the broker refuses the subscription', async () => {
    const fake = await startMqttFake({ granted: 0x80 });
    const { result } = await checkAgainst(fake, mqtt, { host: '127.0.0.1', port: fake.port, topic: 'secret/#' }, 1000);
    expect(result).toEqual({ ok: false, error: 'the broker refused the subscription to secret/#' });
  });

  it('never shows a password the broker publishes back', async () => {
    const fake = await startMqttFake({ publish: 'password' });
    const { result } = await checkAgainst(
      fake,
      mqtt,
      { host: '127.0.0.1', port: fake.port, username: 'u', password: 'echoed-Pa55', topic: 't', expected: 'x' },
      1000,
      'echoed-Pa55',
    );
    expect(result).toMatchObject({ ok: false, error: 'expected "x", got "***"' });
  });

  it('speaks MQTT over TLS, refusing a certificate it cannot verify unless told to ignore it', async () => {
    const certificate = await serverCertificate();
    const strict = await startMqttFake({ certificate });
    const refused = await checkAgainst(strict, mqtt, { host: '127.0.0.1', port: strict.port, tls: true }, 1500);
    expect(refused.result).toMatchObject({ ok: false, error: expect.stringMatching(/self-signed certificate/) });
    const fake = await startMqttFake({ certificate, publish: 'over tls' });
    const { result } = await checkAgainst(
      fake,
      mqtt,
      { host: '127.0.0.1', port: fake.port, tls: true, ignoreTls: true, topic: 't', expected: 'over tls' },
      1500,
    );
    expect(result).toMatchObject({ ok: true, message: 't → over tls' });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, mqtt, { host: hole.host, port: hole.port }, 400);
    expect(result).toEqual({ ok: false, error: timedOutAfter(400) });
  });

  it('says the connection was refused on a closed port', async () => {
    expect(await runThrough(mqtt, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('is refused at once under deny', async () => {
    const result = await leavingNothingOpen(() =>
      runThrough(mqtt, { host: 'localhost', tls: true }, 2000, PUBLIC_TARGETS_ONLY),
    );
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
    });
  });
});

describe('mqtt config', () => {
  it('names the field of a mistake', () => {
    const issues = (config: unknown) =>
      mqttConfig.safeParse(config).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ host: 'broker', expected: 'x' })).toEqual([['expected', 'expected needs a topic']]);
  });
});
