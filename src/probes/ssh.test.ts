// The ssh monitor against servers that send what OpenSSH and others send first, byte for byte, and against ones that do not.
import { afterEach, describe, expect, it } from 'vitest';
import { checkAgainst, closedTcpPort, probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { flood, type ScriptedTcpServer, startScriptedTcp } from '../../test/fakes/service-servers.js';
import { PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { ssh } from './ssh.js';

/** What OpenSSH 9.6 on Ubuntu 24.04 sends on accepting a connection, before it reads the client's own string. */
const OPENSSH = 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n';

const servers: ScriptedTcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serving(script: Parameters<typeof startScriptedTcp>[0]): Promise<ScriptedTcpServer> {
  const server = await startScriptedTcp(script);
  servers.push(server);
  return server;
}

describe('ssh probe', () => {
  it('is up with the identification string, and sends nothing itself', async () => {
    const server = await startScriptedTcp((socket) => socket.write(OPENSSH));
    const { result } = await checkAgainst(
      server,
      ssh,
      { host: '127.0.0.1', port: server.port, expect: 'OpenSSH_9' },
      1500,
    );
    expect(result).toMatchObject({
      ok: true,
      message: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5',
      data: { sshProtocol: '2.0', sshSoftware: 'OpenSSH_9.6p1', sshComment: 'Ubuntu-3ubuntu13.5' },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.received()).toBe('');
  });

  it('reads past the lines a server may send before its identification (RFC 4253 §4.2), and a string sent in pieces', async () => {
    const server = await serving((socket) => {
      socket.write('Welcome to the bastion\r\nAuthorized use only\r\nSSH-2.0-dropbear');
      setTimeout(() => socket.write('_2022.83\r\n'), 20);
    });
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: server.port })).toMatchObject({
      ok: true,
      message: 'SSH-2.0-dropbear_2022.83',
      data: { sshSoftware: 'dropbear_2022.83' },
    });
  });

  it('accepts 1.99 (SSH 2 with SSH 1 compatibility) and refuses an SSH 1 server', async () => {
    const old = await serving((socket) => socket.write('SSH-1.99-OpenSSH_3.9p1\r\n'));
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: old.port })).toMatchObject({
      ok: true,
      data: { sshProtocol: '1.99' },
    });
    const ancient = await serving((socket) => socket.write('SSH-1.5-1.2.27\n'));
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: ancient.port })).toMatchObject({
      ok: false,
      error: 'the server speaks SSH 1.5 only (SSH-1.5-1.2.27); SSH 2.0 is expected',
    });
  });

  it('is down when the identification string lacks the expected text', async () => {
    const server = await serving((socket) => socket.write(OPENSSH));
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: server.port, expect: 'OpenSSH_10' })).toMatchObject({
      ok: false,
      error: 'the identification string "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5" does not contain "OpenSSH_10"',
    });
  });

  it('says what else answered: an HTTP server, a server that hangs up, a closed port', async () => {
    const web = await serving((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: web.port })).toEqual({
      ok: false,
      error: 'the server closed the connection without sending an SSH identification string',
    });
    expect(await probeDirectly(ssh, { host: '127.0.0.1', port: await closedTcpPort() })).toEqual({
      ok: false,
      error: 'connection refused',
    });
  });

  it('times out on a server that accepts and says nothing', async () => {
    const server = await startScriptedTcp(() => {});
    const { result, elapsedMs } = await checkAgainst(server, ssh, { host: '127.0.0.1', port: server.port }, 300);
    expect(result).toEqual({ ok: false, error: 'timed out after 0.3 s' });
    expect(elapsedMs).toBeLessThan(800);
  });

  it('stops reading a server that floods without an identification string at 4 KiB', async () => {
    const server = await startScriptedTcp((socket) => flood(socket, Buffer.alloc(64 * 1024, 'x')));
    const { result } = await checkAgainst(server, ssh, { host: '127.0.0.1', port: server.port }, 3000);
    expect(result).toEqual({
      ok: false,
      error: 'unexpected response: no SSH identification string in the first 4 KiB',
    });
  });

  it('refuses a private target under deny without connecting', async () => {
    const server = await serving((socket) => socket.write(OPENSSH));
    const result = await runThrough(ssh, { host: '127.0.0.1', port: server.port }, 1500, PUBLIC_TARGETS_ONLY);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
    });
    expect(server.connections()).toBe(0);
  });

  it('names the field that is wrong', () => {
    const parsed = ssh.config.safeParse({ host: 'git.example.test', port: 0, expect: '' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['port', 'expected an integer from 1 to 65535'],
      ['expect', 'expected at least 1 character'],
    ]);
  });
});
