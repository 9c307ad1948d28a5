// Structured JSON logs (pino) that never carry a secret: auth headers are redacted and tokens in URLs masked.
import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'warden' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.apiKey', '*.botToken', 'config.password'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ fd: 2, sync: false }),
  );
}
