/**
 * Start-up, shutdown and crashes of the built server, each on a server and database of its own.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { backends, type TestDatabase } from "../support/backends";
import { TEST_ADMIN_ENV, signInOverHttp } from "../support/admin-http";
import { findEnquiry, postJson, validEnquiry } from "../support/enquiries";
import { connectionRefused, holdRequest, rawRequest } from "../support/http";
import { assertBuilt, spawnServer, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

describe.each(backends)("server life cycle on $name", (backend) => {
  let database: TestDatabase | undefined;
  let server: SpawnedServer | undefined;

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

  async function freshServer(): Promise<{ database: TestDatabase; server: SpawnedServer }> {
    await server?.stop();
    await database?.cleanup();
    database = await backend.createDatabase({ migrated: true });
    // Every request here comes from 127.0.0.1: the per-IP contact limit would turn the load into 429s.
    server = await startServer({ ...database.env, CONTACT_RATE_LIMIT: "1000" });
    return { database, server };
  }

  it("finishes an in-flight request on SIGTERM, then exits 0", async () => {
    const { database, server } = await freshServer();
    const message = `Sent across a shutdown on ${backend.name}`;
    const request = await holdRequest(server.port, "/api/contact", JSON.stringify({ ...validEnquiry, message }));

    server.child.kill("SIGTERM");
    // The server stops accepting new connections while our request is still open.
    await waitFor("the server to stop listening", () => connectionRefused(server.port));
    const answer = await request.finish();
    expect(answer.status).toBe(201);
    const { id } = JSON.parse(answer.text) as { id: string };
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const check = database.open();
    expect(await findEnquiry(check, { id })).toHaveLength(1);
    await check.close();
  });

  it("keeps every acknowledged enquiry when killed with SIGKILL under load", async () => {
    const { database, server } = await freshServer();
    const acknowledged: string[] = [];
    let killed = false;
    let failed = 0;
    const requests = Array.from({ length: 200 }, async (_, i) => {
      try {
        const response = await postJson(server.url, { ...validEnquiry, message: `Durability ${i}` });
        if (response.status !== 201) return;
        const { id } = (await response.json()) as { id: string };
        acknowledged.push(id);
        if (acknowledged.length === 25 && !killed) {
          killed = true;
          server.child.kill("SIGKILL");
        }
      } catch {
        failed++; // Never acknowledged: the visitor sees an error and still has the form.
      }
    });
    await Promise.all(requests);
    expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(killed).toBe(true);
    console.log(`${backend.name}: ${acknowledged.length} acknowledged before kill -9, ${failed} failed`);

    const check = database.open();
    const stored = new Set((await check.db.selectFrom("contact_submissions").select("id").execute()).map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    await check.close();

    // And the server starts again on what it left behind.
    const restarted = await startServer(database.env);
    try {
      expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    } finally {
      expect(await restarted.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("on SIGTERM: /readyz turns 503 at once, /healthz stays 200, and requests are answered through SHUTDOWN_DRAIN_MS; then it exits 0", async () => {
    await server?.stop();
    await database?.cleanup();
    database = await backend.createDatabase({ migrated: true });
    server = await startServer({ ...database.env, CONTACT_RATE_LIMIT: "1000", SHUTDOWN_DRAIN_MS: "5000", KEEP_ALIVE_TIMEOUT_MS: "75000" });
    const running = server;
    const get = (path: string) => rawRequest(running.port, { method: "GET", path, headers: { connection: "keep-alive" } });
    expect((await get("/readyz")).status).toBe(200);
    // Idle keep-alive connections stay open for KEEP_ALIVE_TIMEOUT_MS, and the server says so.
    expect((await get("/")).headers["keep-alive"]).toBe("timeout=75");

    running.child.kill("SIGTERM");
    await waitFor("/readyz to answer 503", async () => (await get("/readyz")).status === 503);
    const ready = await get("/readyz");
    expect(JSON.parse(ready.text)).toEqual({ status: "shutting down" });
    expect((await get("/healthz")).status).toBe(200);
    const page = await get("/");
    expect(page.status).toBe(200);
    // Clients on kept-alive connections reconnect, to an instance that is not stopping.
    expect(page.headers.connection).toBe("close");
    const enquiry = await postJson(running.url, { ...validEnquiry, message: "Sent while the server drains" });
    expect(enquiry.status).toBe(201);
    const { id } = (await enquiry.json()) as { id: string };

    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.stdout()).toContain("SHUTDOWN_DRAIN_MS");
    const check = database.open();
    expect(await findEnquiry(check, { id })).toHaveLength(1);
    await check.close();
  });

  if (backend.name === "postgres") {
    it("answers 503 with Retry-After, in one log line, when every database connection is busy; and recovers", async () => {
      await server?.stop();
      await database?.cleanup();
      database = await backend.createDatabase({ migrated: true });
      server = await startServer({
        ...database.env,
        CONTACT_RATE_LIMIT: "1000",
        DATABASE_POOL_MAX: "1",
        DATABASE_CONNECT_TIMEOUT_MS: "300",
        DATABASE_STATEMENT_TIMEOUT_MS: "3000",
        ...TEST_ADMIN_ENV,
      });
      const running = server;
      const cookie = await signInOverHttp(running);
      // Another client locks the table every enquiry writes first, so an enquiry's transaction
      // waits there, holding the instance's only connection.
      const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await locker.connect();
      try {
        await locker.query("begin");
        await locker.query("lock table rate_limit_events in access exclusive mode");
        const holding = postJson(running.url, { ...validEnquiry, message: "Holds the only connection" });
        await waitFor("the enquiry to wait on the lock", async () => {
          const { rows } = await locker.query<{ count: string }>(
            "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          return Number(rows[0]!.count) > 0;
        });

        const refused = await postJson(running.url, { ...validEnquiry, message: "Finds the pool full" });
        expect(refused.status).toBe(503);
        expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(((await refused.json()) as { error: string }).error).toMatch(/try again/i);
        // A page: the admin's session is looked up in the database first.
        const page = await fetch(`${running.url}/admin`, { headers: { cookie } });
        expect(page.status).toBe(503);
        expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
        // The waiting statement is cancelled at DATABASE_STATEMENT_TIMEOUT_MS: a 503 too, not a hang.
        const held = await holding;
        expect(held.status).toBe(503);
        expect(held.headers.get("retry-after")).toMatch(/^\d+$/);
      } finally {
        await locker.query("rollback").catch(() => {});
        await locker.end();
      }
      expect((await postJson(running.url, { ...validEnquiry, message: "After the lock" })).status).toBe(201);
      // Log lines are written a few kilobytes at a time, at least every 250 ms.
      await vi.waitFor(() => expect((running.stdout() + running.stderr()).match(/database unavailable/g)?.length).toBeGreaterThanOrEqual(3));
      const log = running.stdout() + running.stderr();
      // One line each, no stack trace.
      expect(log).not.toMatch(/^\s+at /m);
    });

    it("answers /healthz with 503 while the PostgreSQL database is gone", async () => {
      const { database, server } = await freshServer();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await database.dropNow!();
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).not.toEqual({ status: "ok" });
    });
  }
});

describe("start-up", () => {
  it("refuses an invalid environment: exits non-zero with a message naming the variable", async () => {
    const dataDir = await makeTempDir("env");
    try {
      const server = spawnServer({ PORT: "abc", DATA_DIR: dataDir });
      const exit = await server.exited;
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(server.stderr()).toMatch(/\bPORT\b/);
      expect(server.stderr()).toContain("abc");
    } finally {
      await removeTempDir(dataDir);
    }
  });

  it("creates a DATA_DIR that does not exist yet", async () => {
    const parent = await makeTempDir("datadir");
    try {
      const server = await startServer({ DATA_DIR: `${parent}/does/not/exist/yet` });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await removeTempDir(parent);
    }
  });
});
