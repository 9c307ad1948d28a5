// The websocket monitor against a real WebSocket server (the ws package), over ws:// and wss://, and against ones that misbehave.
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { startTcpBlackHole } from '../../test/fakes/black-holes.js';
import { type Certificate, createSelfSignedCertificate } from '../../test/fakes/http-fakes.js';
import { checkAgainst, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { startWsFake, type WsFake } from '../../test/fakes/ws-server.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { websocket } from './websocket.js';

const fakes: WsFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
async function serving(onConnection: Parameters<typeof startWsFake>[0], tls?: Certificate): Promise<WsFake> {
  const fake = await startWsFake(onConnection, tls);
  fakes.push(fake);
  return fake;
}
const echo = (socket: WebSocket) =>
  socket.on('message', (data, isBinary) => socket.send(isBinary ? data : `echo: ${data}`));

describe('websocket probe', () => {
  it('is up once upgraded, with the upgrade time, when nothing is to be sent', async () => {
    const fake = await startWsFake(() => {});
    const { result } = await checkAgainst(fake, websocket, { url: fake.url }, 1500);
    expect(result).toMatchObject({ ok: true, message: expect.stringMatching(/^upgraded in \d+ ms$/) });
    expect(fake.upgrades()).toBe(1);
  });

  it('sends the message and checks the first answer for the expected text', async () => {
    const fake = await startWsFake(echo);
    const { result } = await checkAgainst(
      fake,
      websocket,
      { url: fake.url, message: '{"op":"ping"}', expect: '"op":"ping"' },
      1500,
    );
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^answered in \d+ ms: "echo: \{\\"op\\":\\"ping\\"\}"$/),
      data: { answerBytes: 19, binary: false },
    });
  });

  it('checks the first message a server sends by itself when there is nothing to send', async () => {
    const fake = await serving((socket) => socket.send('{"status":"degraded"}'));
    expect(await probeDirectly(websocket, { url: fake.url, expect: '"status":"ok"' })).toMatchObject({
      ok: false,
      error: 'the answer does not contain "\\"status\\":\\"ok\\"": "{\\"status\\":\\"degraded\\"}"',
    });
  });

  it('says what went wrong: no upgrade, a close before the answer', async () => {
    const fake = await serving((socket) => socket.close(1008, 'token required'));
    expect(await probeDirectly(websocket, { url: fake.url.replace('/live', '/other') })).toEqual({
      ok: false,
      error: 'unexpected response: HTTP 400 instead of a WebSocket upgrade',
    });
    expect(await probeDirectly(websocket, { url: fake.url, message: 'hello' })).toEqual({
      ok: false,
      error: 'the server closed the connection with code 1008 (token required) before answering',
    });
  });

  it('stops reading a message larger than 64 KiB', async () => {
    const fake = await startWsFake((socket) => socket.send(Buffer.alloc(4 * 1024 * 1024, 'a')));
    const { result } = await checkAgainst(fake, websocket, { url: fake.url, expect: 'a' }, 3000);
    expect(result).toEqual({ ok: false, error: 'unexpected response: a message larger than 64 KiB' });
  });

  it('times out on a server that accepts and never upgrades, or upgrades and never answers', async () => {
    const hole = await startTcpBlackHole();
    const { result } = await checkAgainst(hole, websocket, { url: `ws://127.0.0.1:${hole.port}/live` }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    const mute = await startWsFake(() => {});
    expect((await checkAgainst(mute, websocket, { url: mute.url, message: 'hello' }, 300)).result).toEqual({
      ok: false,
      error: 'timed out after 0.3 s',
    });
  });

  it('speaks wss://, refusing a self-signed certificate unless told to ignore it', async () => {
    const fake = await serving(echo, await createSelfSignedCertificate(30));
    expect(await probeDirectly(websocket, { url: fake.url })).toEqual({
      ok: false,
      error: 'the TLS certificate is self-signed (set ignoreTls to accept it)',
    });
    expect(
      await probeDirectly(websocket, { url: fake.url, ignoreTls: true, message: 'hi', expect: 'echo: hi' }),
    ).toMatchObject({ ok: true });
  });

  it('sends the configured headers with the upgrade request', async () => {
    const fake = await serving((socket, request) =>
      socket.send(request.headers['x-api-key'] === 'k3y-0123' ? 'welcome' : 'who are you?'),
    );
    expect(
      await probeDirectly(websocket, { url: fake.url, headers: { 'X-API-Key': 'k3y-0123' }, expect: 'welcome' }),
    ).toMatchObject({ ok: true });
    expect(await probeDirectly(websocket, { url: fake.url, expect: 'welcome' })).toMatchObject({
      ok: false,
      error: 'the answer does not contain "welcome": "who are you?"',
    });
  });

  it('refuses a private target under deny without connecting', async () => {
    const fake = await serving(echo);
    const result = await runThrough(websocket, { url: fake.url }, 1500, PUBLIC_TARGETS_ONLY);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect(fake.upgrades()).toBe(0);
  });

  it('names the field that is wrong', () => {
    const parsed = websocket.config.safeParse({ url: 'http://example.test/', expect: '' });
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['url', 'expected a ws:// or wss:// URL'],
      ['expect', 'expected at least 1 character'],
    ]);
  });
});
