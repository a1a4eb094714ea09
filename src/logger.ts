import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';

/**
 * A path separator as a server, proxy or normaliser on the way may read one: `/`, `\`, or either
 * percent-encoded, any number of times (`%2F`, `%252f`, `%5C`).
 */
const SEPARATOR = /(\/|\\|%(?:25)*(?:2f|5c))/i;
/** Percent-escapes, decoded however often they were encoded (`%65`, `%2565` → `e`). */
const ESCAPE = /%(?:25)*([0-9a-f]{2})/gi;

function isExtSegment(segment: string): boolean {
  const decoded = segment.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // `;` starts path parameters, which some servers drop (`/ext;x/KEY`).
  return decoded.split(';', 1)[0]!.toLowerCase() === 'ext';
}

/**
 * Platform keys travel in paths (`/v1/ext/<key>/…`): never log or echo them. What follows any
 * `ext` segment is redacted wherever it is (`//v1/ext/…`, `/V1/EXT/…`, an absolute request target
 * `http://host/v1/ext/…`, `%2Fext%2F…`), whatever its case or encoding, up to the next literal
 * `/` (so a `\` or `%2F` inside a key never lets part of it through). Linear in the path.
 */
export function redactPath(path: string): string {
  const parts = path.split(SEPARATOR);
  // Segments at even indexes, the separators after them at odd ones.
  for (let i = 0; i < parts.length - 2; i += 2) {
    if (!isExtSegment(parts[i]!)) continue;
    let key = i + 2;
    // `/ext//KEY`: servers that merge slashes read KEY as the key.
    while (key < parts.length - 1 && parts[key] === '') key += 2;
    let end = key;
    while (end < parts.length - 1 && parts[end + 1] !== '/') {
      parts[end + 1] = '';
      parts[end + 2] = '';
      end += 2;
    }
    parts[key] = '<redacted>';
    i = end;
  }
  return parts.join('');
}

/**
 * An unexpected error as a log field (`error`, not pino's `err`, whose serializer would rename its
 * type): type, message and stack, for the operator, never for a client; any key in a path redacted.
 */
export function errorFields(error: unknown): { type: string; message: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: redactPath(String(error)) };
  return { type: error.name, message: redactPath(error.message), stack: error.stack && redactPath(error.stack) };
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
