import { describe, expect, it } from "vitest";
import { createLog, plainLog } from "./log.server";

async function logged(write: (log: Awaited<ReturnType<typeof createLog>>) => void): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const log = await createLog({ level: "info", pretty: false, destination: { write: (line: string) => void lines.push(line) } });
  write(log);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the server's log", () => {
  it("writes JSON lines with a level name, a time and the message", async () => {
    const [line] = await logged((log) => log.info({ reqId: "r1", status: 200 }, "request"));
    expect(line).toMatchObject({ level: "info", msg: "request", reqId: "r1", status: 200 });
    expect(line!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("writes secrets as [Redacted], and visitors' addresses and e-mail addresses as keyed hashes", async () => {
    const lines = await logged((log) => {
      log.warn({ ip: "203.0.113.9", email: "Ada@Example.com", password: "hunter2-hunter2", cookie: "session=abc", token: "t0k3n" }, "one");
      log.warn({ ip: "203.0.113.9", email: "ada@example.com" }, "two");
      log.warn({ ip: "203.0.113.10" }, "three");
    });
    const text = JSON.stringify(lines);
    for (const secret of ["203.0.113", "example.com", "hunter2", "session=abc", "t0k3n"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ password: "[Redacted]", cookie: "[Redacted]", token: "[Redacted]" });
    expect(lines[0]!.ip).toMatch(/^ip#[0-9a-f]{12}$/);
    expect(lines[0]!.email).toMatch(/^email#[0-9a-f]{12}$/);
    expect(lines[1]!.ip, "the same visitor, the same tag").toBe(lines[0]!.ip);
    expect(lines[1]!.email, "an address in any case").toBe(lines[0]!.email);
    expect(lines[2]!.ip).not.toBe(lines[0]!.ip);
  });

  it("logs an error with its type, message and stack under err", async () => {
    const [line] = await logged((log) => log.error({ err: new TypeError("broken") }, "Could not do it"));
    expect(line).toMatchObject({ level: "error", msg: "Could not do it", err: { type: "TypeError", message: "broken" } });
    expect((line!.err as { stack: string }).stack).toContain("TypeError: broken");
  });

  it("logs an error of a part around us (the database away) by its name and message, without a stack", async () => {
    const lines: string[] = [];
    const outside = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const log = await createLog({
      level: "info",
      pretty: false,
      destination: { write: (line: string) => void lines.push(line) },
      isOutsideFault: (error) => error === outside,
    });
    log.error({ err: outside }, "Could not do it");
    log.error({ err: new TypeError("broken") }, "Could not do it either");
    const [away, ours] = lines.map((line) => JSON.parse(line) as { err: Record<string, unknown> });
    expect(away!.err).toEqual({ type: "Error", message: "terminating connection due to administrator command", code: "57P01" });
    expect(ours!.err.stack, "our own fault keeps its stack").toContain("TypeError: broken");
  });

  it("leaves out what is below LOG_LEVEL", async () => {
    const lines: string[] = [];
    const log = await createLog({ level: "warn", pretty: false, destination: { write: (line: string) => void lines.push(line) } });
    log.info("not shown");
    log.warn("shown");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["shown"]);
  });
});

describe("plainLog, for npm run admin", () => {
  it("writes the message, and an error's message after it", () => {
    const lines: string[] = [];
    const log = plainLog((line) => lines.push(line));
    log.info("Database: SQLite");
    log.error({ err: new Error("disk full") }, "Could not prune");
    expect(lines).toEqual(["Database: SQLite", "Could not prune: disk full"]);
  });
});

describe("a request's line", () => {
  it('is what log.info(fields, "request") writes, after the lines before it and before the lines after it', async () => {
    const lines: string[] = [];
    const log = await createLog({ level: "info", pretty: false, destination: { write: (text: string) => void lines.push(text) } });
    log.info("before");
    log.request("info", { reqId: "r1", method: "GET", path: '/a "quoted" \u2028 path', status: 200, ms: 1.5 });
    log.request("warn", { reqId: "r2", method: "POST", path: "/api/contact", status: 503, ms: 12, reason: "database unavailable: busy", aborted: true });
    log.info({ reqId: "r3", method: "GET", path: "/", status: 404, ms: 0.3 }, "request");
    log.warn("after");
    const parsed = lines
      .join("")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.msg)).toEqual(["before", "request", "request", "request", "after"]);
    const keys = (line: Record<string, unknown>) => Object.keys(line).filter((key) => key !== "reason" && key !== "aborted");
    expect(keys(parsed[1]!), "the same fields in the same order as pino's own line").toEqual(keys(parsed[3]!));
    expect(parsed[1]).toMatchObject({
      level: "info",
      reqId: "r1",
      method: "GET",
      path: '/a "quoted" \u2028 path',
      status: 200,
      ms: 1.5,
      pid: parsed[3]!.pid,
      hostname: parsed[3]!.hostname,
    });
    expect(parsed[1]!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(parsed[2]).toMatchObject({ level: "warn", status: 503, reason: "database unavailable: busy", aborted: true });
  });

  it("is left out below LOG_LEVEL", async () => {
    const lines: string[] = [];
    const log = await createLog({ level: "warn", pretty: false, destination: { write: (text: string) => void lines.push(text) } });
    log.request("info", { reqId: "r1", method: "GET", path: "/", status: 200, ms: 1 });
    log.request("warn", { reqId: "r2", method: "GET", path: "/", status: 500, ms: 1 });
    log.warn("after");
    expect(
      lines
        .join("")
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { reqId?: string; msg: string }).reqId ?? "after"),
    ).toEqual(["r2", "after"]);
  });
});
