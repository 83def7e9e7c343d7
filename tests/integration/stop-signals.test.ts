/**
 * Stopping, whoever sends the signal and however often (issue 19, decision
 * 038): the server under `npm start` in a process group of its own, signalled
 * whole as systemd (`KillMode=control-group`), `docker stop` with npm as PID 1
 * and `kill -TERM -- -PGID` do, so it gets SIGTERM twice (npm forwards its
 * copy); a lone instance that nobody balances; Ctrl-C three times.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { backends, type TestDatabase } from "../support/backends";
import { findEnquiry, postJson, validEnquiry } from "../support/enquiries";
import { connectionRefused, holdRequest, rawRequest } from "../support/http";
import { assertBuilt, logLines, startServer, type SpawnedServer } from "../support/server";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

const sqlite = backends.find((backend) => backend.name === "sqlite")!;

describe("stop signals", () => {
  let database: TestDatabase | undefined;
  let server: SpawnedServer | undefined;

  afterEach(async () => {
    await server?.stop();
    await database?.cleanup();
    server = database = undefined;
  });

  async function start(env: Record<string, string>, launch: "node" | "npm"): Promise<{ database: TestDatabase; server: SpawnedServer }> {
    database = await sqlite.createDatabase({ migrated: true });
    server = await startServer({ ...database.env, CONTACT_RATE_LIMIT: "1000", ...env }, { launch });
    return { database, server };
  }

  const messages = (server: SpawnedServer) => logLines(server.stdout()).map((line) => line.msg);

  it("under npm start, the process group signalled twice: drains once, answers throughout, finishes the request in flight, exits 0", async () => {
    const { database, server } = await start({ SHUTDOWN_DRAIN_MS: "3000" }, "npm");
    // A balancer's health check.
    let checking = true;
    const checks = (async () => {
      while (checking) {
        await rawRequest(server.port, { method: "GET", path: "/readyz" }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      await waitFor("a first health check", async () => (await rawRequest(server.port, { method: "GET", path: "/readyz" })).status === 200);
      const held = await holdRequest(server.port, "/api/contact", JSON.stringify({ ...validEnquiry, message: "In flight across a group SIGTERM" }));

      server.signal("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 50));
      server.signal("SIGTERM");

      // Draining: /readyz says 503 while pages and enquiries are still answered.
      await waitFor("/readyz to answer 503", async () => (await rawRequest(server.port, { method: "GET", path: "/readyz" })).status === 503);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await rawRequest(server.port, { method: "GET", path: "/" })).status).toBe(200);
      const during = await postJson(server.url, { ...validEnquiry, message: "Sent during the drain" });
      expect(during.status).toBe(201);

      // After the drain it stops listening, and the request that was in flight all along is answered.
      await waitFor("the server to stop listening", () => connectionRefused(server.port), 20_000);
      const answer = await held.finish();
      expect(answer.status).toBe(201);
      expect(await server.exited).toEqual({ code: 0, signal: null });

      const lines = messages(server);
      expect(lines.filter((line) => line.startsWith("SIGTERM received: /readyz answers 503"))).toHaveLength(1);
      expect(lines.some((line) => line.startsWith("SIGTERM received again while draining: already stopping"))).toBe(true);
      expect(lines).toContain("Closing: finishing in-flight requests and e-mails being sent");
      const check = database.open();
      expect(await findEnquiry(check, { id: (JSON.parse(answer.text) as { id: string }).id })).toHaveLength(1);
      expect(await findEnquiry(check, { id: ((await during.json()) as { id: string }).id })).toHaveLength(1);
      await check.close();
    } finally {
      checking = false;
      await checks;
    }
  });

  it("a lone instance (nothing asks /readyz) stops at once on SIGTERM: no drain, the request in flight finished", async () => {
    // A drain period far longer than the test may take: exiting before it ends shows it was skipped.
    const drainMs = 60_000;
    const { server } = await start({ SHUTDOWN_DRAIN_MS: String(drainMs) }, "npm");
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const held = await holdRequest(server.port, "/api/contact", JSON.stringify({ ...validEnquiry, message: "In flight on a lone instance" }));

    const signalled = Date.now();
    server.signal("SIGTERM");
    await waitFor("the server to stop listening", () => connectionRefused(server.port));
    expect((await held.finish()).status).toBe(201);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(drainMs);

    const lines = messages(server);
    expect(lines.some((line) => /^SIGTERM received: finishing in-flight requests, then exiting \(no drain: nothing asked \/readyz/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes("/readyz answers 503"))).toBe(false);
    expect(lines).toContain("Closing: finishing in-flight requests and e-mails being sent");
  });

  it("Ctrl-C: the first finishes what is in flight, a second changes nothing, a third stops at once and says so", async () => {
    const { server } = await start({}, "node");
    const held = await holdRequest(server.port, "/api/contact", JSON.stringify({ ...validEnquiry, message: "Cut by a third Ctrl-C" }));

    server.signal("SIGINT");
    await waitFor("the server to stop listening", () => connectionRefused(server.port));
    // Distinct key presses, not one press seen twice.
    await new Promise((resolve) => setTimeout(resolve, 400));
    server.signal("SIGINT");
    await waitFor("the second Ctrl-C in the log", () => messages(server).some((line) => line.startsWith("SIGINT received again")));
    expect(server.child.exitCode).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 400));
    server.signal("SIGINT");

    expect(await server.exited).toEqual({ code: 130, signal: null });
    await expect(held.finish()).rejects.toThrow();
    const lines = messages(server);
    expect(lines.some((line) => line.startsWith("SIGINT received: finishing in-flight requests, then exiting (no drain: SIGINT does not drain)"))).toBe(true);
    expect(lines.some((line) => line.startsWith("SIGINT received 3 times: stopping at once"))).toBe(true);
  });
});
