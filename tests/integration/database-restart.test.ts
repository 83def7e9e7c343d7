/**
 * PostgreSQL restarting, failing over or ending the server's sessions under
 * load (issue 19, decision 038): it costs at most the requests in flight
 * (503 with Retry-After, one log line each), never the process; the
 * connections held outside the pool (the site lock) come back, with what they
 * held; /readyz is 503 while the database is down and 200 once it answers.
 *
 * On a PostgreSQL cluster of the test's own (support/private-postgres.ts):
 * the shared one serves every other test file at the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SiteLockBusy, lockPostgresSite } from "~/platform/db/site-lock.server";
import { postJson, validEnquiry } from "../support/enquiries";
import { rawRequest } from "../support/http";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";
import { assertBuilt, logLines, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

const CLIENTS = 10;
/** Enquiries acknowledged between one fault and the next. */
const BETWEEN_FAULTS = 60;

type Answer = { at: number; status: number; retryAfter: string | null; body: string };

describe("PostgreSQL restarting under contact load", () => {
  let cluster: PrivatePostgres | undefined;
  let server: SpawnedServer | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    dataDir = await makeTempDir("pg-restart");
    server = await startServer({
      DATABASE_URL: cluster.url,
      DATA_DIR: dataDir,
      // Every client is 127.0.0.1, and the load is far above a real site's.
      CONTACT_RATE_LIMIT: "1000000",
      CONTACT_SITE_LIMIT: "1000000",
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await cluster?.remove();
    if (dataDir) await removeTempDir(dataDir);
  });

  /** Whether a restore could take the site now: false while a server holds its lock (as it must, all along). */
  async function restoreWouldBeRefused(): Promise<boolean> {
    const log = { error: () => {}, info: () => {} };
    try {
      const lock = await lockPostgresSite(cluster!.url, "restoring", log);
      await lock.release();
      return false;
    } catch (error) {
      if (error instanceof SiteLockBusy) return true;
      throw error;
    }
  }

  it("survives a restart, killed connections and an outage: no exit, no lost enquiry, /readyz back without a restart", async () => {
    const running = server!;
    const answers: Answer[] = [];
    const failures: string[] = [];
    const acknowledged: string[] = [];
    let load = true;

    const client = async (n: number) => {
      for (let i = 0; load; i++) {
        try {
          const response = await postJson(running.url, { ...validEnquiry, message: `Database restart, client ${n}, enquiry ${i}` });
          const body = await response.text();
          answers.push({ at: Date.now(), status: response.status, retryAfter: response.headers.get("retry-after"), body });
          if (response.status === 201) acknowledged.push((JSON.parse(body) as { id: string }).id);
          // A client told to retry waits a little, as Retry-After asks (shorter here).
          else await new Promise((resolve) => setTimeout(resolve, 100));
        } catch (error) {
          failures.push(`${(error as Error).message} ${String((error as Error).cause ?? "")}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    // A balancer's health check, every 100 ms.
    const readiness: Array<{ at: number; status: number }> = [];
    const checks = (async () => {
      while (load) {
        const status = await rawRequest(running.port, { method: "GET", path: "/readyz" }).then(
          (response) => response.status,
          () => 0,
        );
        readiness.push({ at: Date.now(), status });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    const moreAcknowledged = async (what: string) => {
      const target = acknowledged.length + BETWEEN_FAULTS;
      await waitFor(
        `${BETWEEN_FAULTS} enquiries acknowledged ${what}`,
        alive(() => acknowledged.length >= target),
        60_000,
      );
    };
    /** Fails at once, with what it said last, if the server process has ended. */
    const alive = (condition: () => boolean) => () => {
      if (running.child.exitCode !== null || running.child.signalCode !== null) {
        throw new Error(`The server exited (code ${running.child.exitCode}, signal ${running.child.signalCode}):\n${running.stderr().slice(-2_000)}`);
      }
      return condition();
    };
    /** From `since`, how long until /readyz answered 200 and until an enquiry was acknowledged again. */
    const recovery = async (since: number) => {
      await waitFor(
        "/readyz to answer 200 again",
        alive(() => readiness.some((check) => check.at > since && check.status === 200)),
        30_000,
      );
      await waitFor(
        "an enquiry to be acknowledged again",
        alive(() => answers.some((answer) => answer.at > since && answer.status === 201)),
        30_000,
      );
      return {
        readyMs: readiness.find((check) => check.at > since && check.status === 200)!.at - since,
        enquiryMs: answers.find((answer) => answer.at > since && answer.status === 201)!.at - since,
      };
    };
    /** How long until a restore would be refused again: the server took its site lock back. */
    const lockBack = async (since: number) => {
      await waitFor("the server to take its site lock again", () => restoreWouldBeRefused(), 30_000);
      return Date.now() - since;
    };

    try {
      await moreAcknowledged("before the restart");
      expect(await restoreWouldBeRefused()).toBe(true);

      // 1. pg_ctl restart -m fast, as a failover, a minor upgrade or a managed database's maintenance does.
      await cluster!.restart();
      const restarted = Date.now();
      const afterRestart = await recovery(restarted);
      const lockAfterRestart = await lockBack(restarted);
      await moreAcknowledged("after the restart");

      // 2. Every session of the server ended (pg_terminate_backend): the pool's and the site lock's.
      const admin = new pg.Client({ connectionString: cluster!.url });
      await admin.connect();
      const { rows } = await admin.query<{ ended: boolean }>(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      await admin.end();
      expect(rows.length).toBeGreaterThan(0);
      const terminated = Date.now();
      const afterTerminate = await recovery(terminated);
      const lockAfterTerminate = await lockBack(terminated);
      await moreAcknowledged("after the sessions were ended");

      // 3. The database down for a while: /readyz and enquiries answer 503, then it comes back.
      const paused = Date.now();
      await cluster!.pause();
      await waitFor("/readyz to answer 503", () => readiness.some((check) => check.at > paused && check.status === 503), 30_000);
      await waitFor("an enquiry answered 503", () => answers.some((answer) => answer.at > paused && answer.status === 503), 30_000);
      const down = await rawRequest(running.port, { method: "GET", path: "/readyz" });
      expect(down.status).toBe(503);
      expect(JSON.parse(down.text)).toEqual({ status: "database unavailable" });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await cluster!.resume();
      const resumed = Date.now();
      const afterOutage = await recovery(resumed);
      const lockAfterOutage = await lockBack(resumed);
      await moreAcknowledged("after the outage");

      const refused = answers.filter((answer) => answer.status === 503).length;
      console.log(
        [
          `database restart under ${CLIENTS} clients: ${answers.length} enquiries sent, ${acknowledged.length} acknowledged, ${refused} answered 503, ${failures.length} failed`,
          `  pg_ctl restart -m fast: /readyz 200 ${afterRestart.readyMs} ms and an enquiry acknowledged ${afterRestart.enquiryMs} ms after the server was back; site lock again after ${lockAfterRestart} ms`,
          `  pg_terminate_backend: /readyz 200 after ${afterTerminate.readyMs} ms, an enquiry acknowledged after ${afterTerminate.enquiryMs} ms; site lock again after ${lockAfterTerminate} ms`,
          `  stopped for 1 s, then started: /readyz 200 ${afterOutage.readyMs} ms and an enquiry acknowledged ${afterOutage.enquiryMs} ms after it was back; site lock again after ${lockAfterOutage} ms`,
        ].join("\n"),
      );
    } finally {
      load = false;
      await clients;
      await checks;
    }

    // The process never exited, and answers still.
    expect(running.child.exitCode).toBeNull();
    expect(running.child.signalCode).toBeNull();
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    // Every request was answered: acknowledged, or 503 with Retry-After (the visitor keeps the form).
    expect(failures).toEqual([]);
    expect(answers.filter((answer) => answer.status !== 201 && !(answer.status === 503 && /^\d+$/.test(answer.retryAfter ?? "")))).toEqual([]);
    expect(answers.some((answer) => answer.status === 503)).toBe(true);

    // Nothing acknowledged was lost.
    const reader = new pg.Client({ connectionString: cluster!.url });
    await reader.connect();
    const stored = new Set((await reader.query<{ id: string }>("select id from contact_submissions")).rows.map((row) => row.id));
    await reader.end();
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);

    // The log names what happened, one line per refused request, no stack traces.
    await running.stop();
    const lines = logLines(running.stdout());
    const messages = lines.map((line) => line.msg);
    expect(messages.some((message) => message.startsWith("The database cannot be reached ("))).toBe(true);
    expect(messages.some((message) => message.startsWith("The database answers again after"))).toBe(true);
    expect(messages.some((message) => message.startsWith("Took the running-site lock again"))).toBe(true);
    expect(lines.filter((line) => typeof (line.err as { stack?: unknown } | undefined)?.stack === "string").map((line) => line.msg)).toEqual([]);
    expect(running.stderr()).not.toMatch(/Uncaught|unhandled/i);
  }, 300_000);
});
