import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';

/** Platform keys travel in REST paths (`/v1/ext/<key>/…`): never log them. */
export function redactPath(path: string): string {
  return path.replace(/^\/v1\/ext\/[^/]*/, '/v1/ext/<redacted>');
}

/**
 * Structured logs: JSON lines for machines (level names, ISO times), or pino-pretty's coloured
 * lines for humans (LOG_FORMAT=pretty, the demo's default). Keys are kept out by construction
 * (upstream logs name route templates, access logs redact platform paths); the redact list is a
 * second line of defence.
 */
export function createLogger(
  { level, format }: { level: LogLevel; format: LogFormat },
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { app: 'satgate', pid: process.pid },
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'headers.authorization'],
      censor: '<redacted>',
    },
  };
  if (format === 'pretty') {
    // Synchronous: a human's terminal, and nothing left in a buffer when the process exits.
    const stream = pretty({
      destination: destination ?? 1,
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'app,hostname',
    });
    return pino(options, stream);
  }
  return pino(
    { ...options, timestamp: stdTimeFunctions.isoTime, formatters: { level: (label: string) => ({ level: label }) } },
    destination,
  );
}
