import { createHmac, randomBytes } from "node:crypto";
import { pino, stdSerializers, type DestinationStream, type LevelWithSilent } from "pino";

/**
 * The server's log (docs/decisions/031): one pino logger, made once at start
 * (server/app.ts) and passed down in the services. In production each line is
 * one JSON object on stdout; under `npm run dev` pino-pretty prints it for
 * people.
 *
 * Structured fields are the place for what a line is about. Those named for
 * secrets (password, cookie, token, authorization…) are written "[Redacted]";
 * a visitor's address (`ip`) or e-mail address (`email`) as a keyed hash, the
 * same within one process, so lines about one visitor can be followed without
 * the log holding who they are. Messages never carry either.
 */

/** A log call: a message, or fields and then a message. pino's logger is one; so is plainLog's. */
export type LogFn = {
  (message: string): void;
  (fields: Record<string, unknown>, message: string): void;
};

export type Log = { debug: LogFn; info: LogFn; warn: LogFn; error: LogFn };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The server's logger and how to write out what it still holds (before the process exits). */
export type ServerLog = Log & { written(): Promise<void> };

const SECRET_FIELDS = ["password", "cookie", "authorization", "token", "secret", "smtpUrl", "databaseUrl"];

/**
 * Lines are gathered and written a few kilobytes at a time, and at least this
 * often: one write(2) per line costs a busy server more than the line itself.
 * What is gathered is written synchronously when the process exits.
 */
const BUFFER_BYTES = 4096;
const FLUSH_EVERY_MS = 250;

/** A keyed hash of a visitor's address or e-mail address: "ip#3f9a0c1b2d4e". */
export function visitorHasher(key: Buffer = randomBytes(32)): (kind: string, value: unknown) => string {
  return (kind, value) => {
    const text = typeof value === "string" ? value.trim().toLowerCase() : String(value);
    return `${kind}#${createHmac("sha256", key).update(text).digest("hex").slice(0, 12)}`;
  };
}

export type LogOptions = {
  level: LogLevel;
  /** Lines for people (pino-pretty, `npm run dev`); JSON otherwise. */
  pretty: boolean;
  /** Where lines go; stdout by default. For tests. */
  destination?: DestinationStream;
};

function buffered(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  setInterval(() => stream.flush(), FLUSH_EVERY_MS).unref();
  return stream;
}

export async function createLog({ level, pretty, destination }: LogOptions): Promise<ServerLog> {
  const hash = visitorHasher();
  const stream =
    destination ??
    (pretty
      ? // A development dependency, loaded only under `npm run dev`: production installs leave it out.
        (await import("pino-pretty")).default({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
      : buffered());
  // pino's serializers, by field name, rather than its redact paths: a look-up per field, where
  // paths are walked on every line (a tenth of the log's cost on GET /). Fields are flat here:
  // nothing logs a request's headers or a whole object of settings.
  const serializers: Record<string, (value: unknown) => unknown> = { err: (value) => stdSerializers.err(value as Error) };
  for (const name of SECRET_FIELDS) serializers[name] = () => "[Redacted]";
  for (const name of ["ip", "clientIp"]) serializers[name] = (value) => hash("ip", value);
  serializers.email = (value) => hash("email", value);
  const logger = pino(
    {
      level: level as LevelWithSilent,
      timestamp: pino.stdTimeFunctions.isoTime,
      // "level":"info" rather than 30: read by people as often as by tools.
      formatters: { level: (label) => ({ level: label }) },
      serializers,
    },
    stream,
  );
  return Object.assign(logger as unknown as Log, {
    written: () => new Promise<void>((resolve) => logger.flush(() => resolve())),
  });
}

/**
 * A Log that writes each message as a plain line (and an error's message after
 * it), for `npm run admin`, whose output is read by people.
 */
export function plainLog(write: (line: string) => void): Log {
  const line = (first: string | Record<string, unknown>, message?: string) => {
    if (typeof first === "string") return write(first);
    const err = first.err;
    write(err instanceof Error ? `${message}: ${err.message}` : (message ?? ""));
  };
  return { debug: () => {}, info: line, warn: line, error: line } as Log;
}
