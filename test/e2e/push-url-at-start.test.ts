// A server applying WARDEN_CONFIG at start-up logs the push URL of each heartbeat monitor whose token it made, once,
// after the status pages' addresses; the URL works; a restart (the token already stored) logs nothing more.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backup, name: Nightly backup, type: heartbeat, config: { graceSec: 90000 } }
pages:
  - { slug: acme, title: Acme, components: [{ name: Backups, monitor: backup }] }
`;
const PUSH_LINE = /heartbeat monitor backup: push to (https?:\/\/[^\s]+\/api\/push\/(wdp_[\w-]+))/;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`push URLs at start-up on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    let running: Warden | undefined;
    const file = join(process.env.TMPDIR ?? '/tmp', `warden-push-${process.pid}-${dialect.name}.yaml`);
    afterEach(async () => {
      await running?.close();
      running = undefined;
      await opened?.cleanup();
      opened = undefined;
      rmSync(file, { force: true });
    });

    async function start(): Promise<{ log: { msg: string; level: number }[]; base: string }> {
      const lines: string[] = [];
      const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
      const settings = readSettings({
        ...opened?.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        WARDEN_CONFIG: file,
      });
      running = await startWarden({ settings, logger });
      const log = lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; level: number });
      return { log, base: running.url.replace('localhost', '127.0.0.1') };
    }

    it('logs a new heartbeat push URL once, prominently, after the page URLs; the URL takes pings', async () => {
      opened = await dialect.open({ migrate: false });
      writeFileSync(file, YAML);
      const first = await start();
      const at = first.log.findIndex((e) => PUSH_LINE.test(e.msg));
      expect(at).toBeGreaterThan(first.log.findIndex((e) => e.msg.startsWith('status page "Acme"')));
      // warn: it stands out of the info lines, as the first-run setup link does.
      expect(first.log[at]?.level).toBe(40);
      const [, url = '', token = ''] = PUSH_LINE.exec(first.log[at]?.msg ?? '') ?? [];
      expect(url.startsWith(`${running?.url}/api/push/`)).toBe(true);
      // The token is in that line only.
      expect(JSON.stringify(first.log).split(token)).toHaveLength(2);
      expect((await fetch(`${first.base}/api/push/${token}?msg=ok`)).status).toBe(200);
      await running?.close();
      running = undefined;

      const second = await start();
      expect(second.log.some((e) => e.msg.includes('/api/push/'))).toBe(false);
      expect((await fetch(`${second.base}/api/push/${token}`)).status).toBe(200);
    });
  });
}
