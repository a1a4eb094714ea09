import { destination as sonicBoom, pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat, LogLevel } from '../config.js';

/**
 * A path separator as a server, proxy or normaliser on the way may read one: `/`, `\`, or either
 * percent-encoded, any number of times (`%2F`, `%252f`, `%5C`).
 */
const SEPARATOR = /(\/|\\|%(?:25)*(?:2f|5c))/i;
/** Percent-escapes, decoded however often they were encoded (`%65`, `%2565` → `e`). */
const ESCAPE = /%(?:25)*([0-9a-f]{2})/gi;

function isExtSegment(segment: string): boolean {
  const decoded = segment.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // `;` starts path parameters, which some servers drop (`/ext;x/KEY`); a server or normaliser may
  // also trim what is not a letter or digit (`ext%09`, `ext%00`, `ext.`): read as `ext` too.
  return (
    decoded
      .split(';', 1)[0]!
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase() === 'ext'
  );
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

/** A logger's own stdout destination, for closeLogs. */
const stdoutLogs = new WeakMap<Logger, StdoutLog>();

/**
 * Structured logs: JSON lines for machines (level names, ISO times), or pino-pretty's coloured
 * lines for humans (LOG_FORMAT=pretty, the demo's default). Keys are kept out by construction
 * (upstream logs name route templates, access logs redact platform paths); the redact list is a
 * second line of defence. Without a destination they go to stdout, until closeLogs.
 */
export function createLogger({ level, format }: { level: LogLevel; format: LogFormat }, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { app: 'satgate', pid: process.pid },
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'headers.authorization'],
      censor: '<redacted>',
    },
  };
  // Pretty lines are written synchronously: a human's terminal sees them in order with the demo's own.
  const stdout = destination ? undefined : stdoutLog({ sync: format === 'pretty' });
  const sink = destination ?? stdout!.stream;
  let logger: Logger;
  if (format === 'pretty') {
    const pretty = prettyFactory({ singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'app,hostname' });
    logger = pino(options, { write: (line: string) => sink.write(pretty(line)) });
  } else {
    logger = pino({ ...options, timestamp: stdTimeFunctions.isoTime, formatters: { level: (label: string) => ({ level: label }) } }, sink);
  }
  if (stdout) stdoutLogs.set(logger, stdout);
  return logger;
}

/**
 * Ends a logger's stdout: lines logged from now on are dropped; resolves once those already logged
 * are written, or `timeoutMs` has passed (a reader that has stopped reading). Nothing for a logger
 * with a destination of its own. After it, nothing of the logger can hold the process's exit.
 */
export function closeLogs(logger: Logger, timeoutMs: number): Promise<void> {
  return stdoutLogs.get(logger)?.close(timeoutMs) ?? Promise.resolve();
}

interface StdoutLog {
  stream: DestinationStream;
  close(timeoutMs: number): Promise<void>;
}

/** What stdout may hold while its reader does not read: past it, lines are dropped. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/**
 * stdout through sonic-boom (pino.destination), which pino flushes synchronously at exit when it
 * is asynchronous. That flush retries a failing write forever, 100 ms apart (sonic-boom 4.2.1:
 * EAGAIN while a reader does not read; EPIPE too, when the reader left in the middle of a line
 * while a write was in flight): the process never exited. So the destination is ended before the
 * exit, and destroyed (which that flush skips) once it is written or the wait is over.
 * A closed stdout only silences the logs, and a synchronous destination never waits for a reader:
 * what it cannot write now goes with the next line. What waits is bounded in bytes.
 */
function stdoutLog({ sync }: { sync: boolean }): StdoutLog {
  const boom = sonicBoom({ dest: 1, sync, maxLength: MAX_PENDING_BYTES, retryEAGAIN: () => !sync });
  let closed = false;
  let gone = false;
  const settled = new Promise<void>((resolve) => {
    boom.once('close', () => resolve());
    boom.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EAGAIN' || error.code === 'EBUSY') return;
      gone = true;
      resolve();
    });
  });
  return {
    stream: {
      write(line: string) {
        if (!closed && !gone) boom.write(line);
      },
    },
    async close(timeoutMs) {
      if (!closed && !gone) boom.end();
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      boom.destroy();
    },
  };
}
