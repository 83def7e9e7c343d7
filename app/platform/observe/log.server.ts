import { createHmac, randomBytes } from "node:crypto";
import { hostname } from "node:os";
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

/** The fields of a request's one line (server/request-log.ts). */
export type RequestLine = { reqId: string; method: string; path: string; status: number; ms: number; reason?: string; aborted?: true };

/** The server's logger, its request lines, and how to write out what it still holds (before the process exits). */
export type ServerLog = Log & {
  /** The line `{…fields, "msg": "request"}` at `level`: what log[level](fields, "request") writes, made cheaply (every request has one). */
  request(level: "info" | "warn", line: RequestLine): void;
  written(): Promise<void>;
};

const SECRET_FIELDS = ["password", "cookie", "authorization", "token", "secret", "smtpUrl", "databaseUrl"];

/**
 * Lines are gathered and written 16 KB at a time, and at least every 250 ms:
 * one write(2) per line costs a busy server more than the line itself, and
 * each write handed to libuv's thread pool costs tens of microseconds, so
 * fewer, larger writes (decision 039). What is gathered is written
 * synchronously when the process exits.
 */
const BUFFER_BYTES = 16_384;
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
  /**
   * True for an error of a part around us that the line names well enough by its
   * message (the database restarting or unreachable): logged without its stack,
   * which would only say where our code was when the part went away.
   */
  isOutsideFault?: (error: unknown) => boolean;
};

/** A destination that takes lines and writes them out: the test's, pino-pretty, or stdout's gathered one. */
type LineSink = DestinationStream & { flush?(callback?: (error?: Error) => void): void; flushSync?(): void };

/**
 * Stdout, with lines gathered here and handed to sonic-boom (which writes them
 * from libuv's thread pool, never blocking on a slow reader) BUFFER_BYTES at a
 * time. sonic-boom's own buffer measures its pending text on every write,
 * which costs more the more it holds: it gets a few large writes instead.
 */
function gatheredStdout(): LineSink {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 0 });
  const pending: string[] = [];
  let pendingLength = 0;
  const handOver = () => {
    if (pending.length === 0) return;
    const text = pending.join("");
    pending.length = 0;
    pendingLength = 0;
    stdout.write(text);
  };
  setInterval(handOver, FLUSH_EVERY_MS).unref();
  // pino writes out what sonic-boom holds at exit (synchronously): what is gathered here goes in first.
  process.prependOnceListener("exit", handOver);
  return {
    write(line: string) {
      pending.push(line);
      // Characters, not bytes: a bound on the batch, not an exact size.
      pendingLength += line.length;
      if (pendingLength >= BUFFER_BYTES) handOver();
    },
    flush(callback?: (error?: Error) => void) {
      handOver();
      stdout.flush(callback);
    },
    flushSync() {
      handOver();
      stdout.flushSync();
    },
  };
}

export async function createLog({ level, pretty, destination, isOutsideFault = () => false }: LogOptions): Promise<ServerLog> {
  const hash = visitorHasher();
  const stream: LineSink =
    destination ??
    (pretty
      ? // A development dependency, loaded only under `npm run dev`: production installs leave it out.
        (await import("pino-pretty")).default({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
      : gatheredStdout());
  // pino's serializers, by field name, rather than its redact paths: a look-up per field, where
  // paths are walked on every line (a tenth of the log's cost on GET /). Fields are flat here:
  // nothing logs a request's headers or a whole object of settings.
  const serializers: Record<string, (value: unknown) => unknown> = {
    err: (value) => {
      const serialized = stdSerializers.err(value as Error);
      if (!isOutsideFault(value)) return serialized;
      const { stack: _stack, ...named } = serialized;
      return named;
    },
  };
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
  // A request's line, as pino writes it (pid and hostname are pino's base fields), built here: a
  // quarter of pino's cost, which on a cached page is a tenth of the request's. Not for pino-pretty.
  const base = `","pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;
  let isoAt = 0;
  let iso = "";
  const request = (lineLevel: "info" | "warn", line: RequestLine) => {
    if (!logger.isLevelEnabled(lineLevel)) return;
    if (pretty) return logger[lineLevel](line, "request");
    const now = Date.now();
    if (now !== isoAt) {
      isoAt = now;
      iso = new Date(now).toISOString();
    }
    stream.write(
      `{"level":"${lineLevel}","time":"${iso}${base}${JSON.stringify(line.reqId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},` +
        `"status":${line.status},"ms":${line.ms}${line.reason === undefined ? "" : `,"reason":${JSON.stringify(line.reason)}`}${line.aborted ? `,"aborted":true` : ""},"msg":"request"}\n`,
    );
  };
  return Object.assign(logger as unknown as Log, {
    request,
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
