import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Platform keys travel in REST paths (`/v1/ext/<key>/…`): never log them. */
export function redactPath(path: string): string {
  return path.replace(/^\/v1\/ext\/[^/]*/, '/v1/ext/<redacted>');
}

/**
 * Structured JSON logs. Keys are kept out by construction (upstream logs name route templates,
 * access logs redact platform paths); the redact list is a second line of defence.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app: 'satgate', pid: process.pid },
      redact: {
        paths: ['apiKey', '*.apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'headers.authorization'],
        censor: '<redacted>',
      },
    },
    destination,
  );
}
