import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, logFormatOf } from './logger.js';

const lines = () => {
  const written: string[] = [];
  return { written, sink: { write: (line: string) => void written.push(line) } };
};
const secrets = {
  req: { headers: { authorization: 'Bearer wdn_secretApiKey0123456789', cookie: 'session=abc' } },
  config: { password: 'hunter2' },
};

describe('createLogger', () => {
  const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
  const noColor = process.env.NO_COLOR;
  afterEach(() => {
    if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
    if (noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColor;
  });

  it('writes JSON lines by default, secrets redacted', () => {
    const { written, sink } = lines();
    createLogger('info', sink).info(secrets, 'configuration applied');
    const line = JSON.parse(written[0] as string);
    expect(line).toMatchObject({
      level: 30,
      service: 'warden',
      msg: 'configuration applied',
      config: { password: '[redacted]' },
    });
    expect(line.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
  });

  it('writes one readable line per event when pretty, secrets still redacted', () => {
    const { written, sink } = lines();
    const logger = createLogger('info', sink, { format: 'pretty', colors: false });
    logger.info({ ...secrets, monitors: 3 }, 'edge runner started');
    logger.debug('not at this level');
    expect(written).toHaveLength(1);
    const line = written[0] as string;
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: edge runner started \{.*"monitors":3.*\}\n$/);
    expect(line).not.toMatch(/^\{/);
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('secretApiKey');
    expect(line).not.toContain('session=abc');
    expect(line).toContain('[redacted]');
    expect(line).not.toContain('\u001b[');
  });

  it('colours pretty lines on a terminal, unless NO_COLOR is set', () => {
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    delete process.env.NO_COLOR;
    const coloured = lines();
    createLogger('info', coloured.sink, { format: 'pretty' }).warn('relay offline');
    expect(coloured.written[0]).toContain('\u001b[');
    process.env.NO_COLOR = '1';
    const plain = lines();
    createLogger('info', plain.sink, { format: 'pretty' }).warn('relay offline');
    expect(plain.written[0]).toMatch(/WARN: relay offline/);
    expect(plain.written[0]).not.toContain('\u001b[');
  });

  it('picks LOG_FORMAT as set, else pretty on a terminal and JSON otherwise', () => {
    expect(logFormatOf('json')).toBe('json');
    expect(logFormatOf('pretty')).toBe('pretty');
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    expect(logFormatOf(undefined)).toBe('pretty');
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    expect(logFormatOf(undefined)).toBe('json');
  });
});
