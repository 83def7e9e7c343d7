/**
 * A flood is held, not turned away (issue 19, decision 037), on each backend.
 * Over CONTACT_SITE_LIMIT enquiries are still stored, held apart from the
 * inbox and told of in one summary e-mail per 15-minute window (also with two
 * instances storing at once); only CONTACT_HARD_LIMIT refuses, and refusing
 * writes no row per request. Over HTTP with the built server and a real SMTP
 * server, and in this process where the clock must be moved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely, KyselyPlugin } from "kysely";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { floodSummaryJobId } from "~/enquiries/flood.server";
import { createFormTokens } from "~/enquiries/form-token.server";
import { startOutboxWorker, type OutboxWorker } from "~/enquiries/outbox-worker.server";
import { createOutboxSignal } from "~/enquiries/outbox.server";
import { busyMessage, rateLimitedMessage } from "~/enquiries/schema";
import { submitEnquiry, type EnquiryServices } from "~/enquiries/submit.server";
import type { Database, Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { plainLog } from "~/platform/observe/log.server";
import { createSmtpMailer, type OutgoingEmail } from "~/platform/mail/mailer.server";
import { NO_METRICS } from "~/platform/observe/metrics.server";
import { createRefusalMemory } from "~/platform/limits/rate-limit.server";
import { TABLES, type DatabaseSchema } from "~/platform/db/schema";
import { createSecrets } from "~/platform/db/secrets.server";
import { createTally, readTally } from "~/platform/limits/tally.server";
import { TEST_ADMIN_ENV, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends, type TestDatabase } from "../support/backends";
import { countEnquiries, postJson, validEnquiry } from "../support/enquiries";
import { assertBuilt, type SpawnedServer } from "../support/server";
import { parseMessage, startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { waitFor } from "../support/wait";
import { useSite } from "../support/sites";
import { visibleText } from "../support/html";

const MAIL = { from: "Example Property <enquiries@mail.example.com>", notifyTo: ["office@example.com"] };
const MAIL_ENV = { MAIL_FROM: MAIL.from, CONTACT_NOTIFY_TO: MAIL.notifyTo.join(","), SMTP_INSECURE: "true" };
/** Longer than the outbox worker's 5 s poll: a second copy that was coming has come by then. */
const NO_MORE_MAIL_WAIT_MS = 6_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rows in every table of the schema, by table. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}

/** The flood summaries in the outbox (the e-mails about no one enquiry), oldest window first. */
async function summaryJobs(db: Db) {
  const rows = await db.selectFrom("email_outbox").selectAll().where("submission_id", "is", null).orderBy("next_attempt_at").execute();
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    nextAttemptAt: row.next_attempt_at === null ? null : toIsoString(row.next_attempt_at),
    message: JSON.parse(row.message) as OutgoingEmail,
  }));
}

/** "5 enquiries arrived during a flood; review them" → 5. */
function countIn(subject: string): number {
  const match = /^(\d+) (?:enquiry arrived during a flood; review it|enquiries arrived during a flood; review them)$/.exec(subject);
  expect(match, subject).not.toBeNull();
  return Number(match![1]);
}

async function subjectsReceived(smtp: TestSmtpServer): Promise<string[]> {
  return (await Promise.all(smtp.messages.map(parseMessage))).map((message) => message.subject ?? "");
}

beforeAll(() => assertBuilt());

describe.each(backends)("a flood on $name", (backend) => {
  describe("over HTTP (CONTACT_SITE_LIMIT=3, CONTACT_HARD_LIMIT=8, CONTACT_RATE_LIMIT=2, behind a proxy)", () => {
    let server: SpawnedServer;
    let reader: Database;
    let smtp: TestSmtpServer;
    const genuine = { ...validEnquiry, name: "Margaret Floodgate", email: "margaret@example.com", message: "Four flats in York; I would like a call." };
    /** Sends two enquiries before the flood, so its later ones are refused by its own limit. */
    const REPEAT_SENDER = "198.51.100.10";

    beforeAll(async () => {
      smtp = await startSmtpServer();
    });
    afterAll(() => smtp?.stop());
    const site = useSite(backend, {
      signedIn: false,
      env: async () => ({
        ...TEST_ADMIN_ENV,
        ...MAIL_ENV,
        SMTP_URL: smtp.url,
        CONTACT_SITE_LIMIT: "3",
        CONTACT_HARD_LIMIT: "8",
        CONTACT_RATE_LIMIT: "2",
        TRUST_PROXY: "loopback",
      }),
    });
    beforeAll(() => ({ server, reader } = site));

    const post = (ip: string, fields: Record<string, string>) => postJson(server.url, { ...validEnquiry, ...fields }, { "x-forwarded-for": ip });

    it("stores every enquiry of a flood past CONTACT_SITE_LIMIT, e-mails none of the held ones, and sends one summary per window", async () => {
      // The hour's first three, as usual: stored, in the inbox, e-mailed one by one.
      expect((await post(REPEAT_SENDER, { message: "Before the flood, one" })).status).toBe(201);
      expect((await post(REPEAT_SENDER, { message: "Before the flood, two" })).status).toBe(201);
      expect((await post("198.51.100.11", { message: "Before the flood, three" })).status).toBe(201);

      // The flood, from addresses of its own, with a genuine enquiry among it: every one answered as accepted.
      const flood = [
        ...Array.from({ length: 4 }, (_, i) => post(`203.0.113.${i + 1}`, { name: `Bot ${i}`, message: `Flood message ${i}` })),
        post("192.0.2.77", genuine),
      ];
      expect((await Promise.all(flood)).map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);

      expect(await countEnquiries(reader)).toBe(8);
      const rows = await reader.db.selectFrom("contact_submissions").select(["message", "spam_signals", "spam_reason"]).execute();
      const held = rows.filter((row) => row.spam_signals === "flood");
      expect(held.map((row) => row.message).sort()).toEqual([...Array.from({ length: 4 }, (_, i) => `Flood message ${i}`), genuine.message].sort());
      expect(rows.filter((row) => row.spam_signals === null && row.spam_reason === null)).toHaveLength(3);

      // The three before the flood are e-mailed; nothing else is, for now.
      await waitFor("the three notifications", () => smtp.messages.length >= 3, 20_000);
      await sleep(NO_MORE_MAIL_WAIT_MS);
      const before = await subjectsReceived(smtp);
      expect(before).toHaveLength(3);
      expect(before.every((subject) => subject.startsWith("New enquiry from Grace Hopper"))).toBe(true);

      // One summary per 15-minute window (the flood took a moment: one window, or two if it crossed a quarter hour),
      // due once its window is over, counting the window's held enquiries.
      const summaries = await summaryJobs(reader.db);
      expect(summaries.length).toBeGreaterThanOrEqual(1);
      expect(summaries.length).toBeLessThanOrEqual(2);
      expect(summaries.map((job) => countIn(job.message.subject)).reduce((sum, count) => sum + count, 0)).toBe(5);
      for (const job of summaries) {
        expect(job.status).toBe("queued");
        expect(Date.parse(job.nextAttemptAt!)).toBeGreaterThan(Date.now());
        expect(Date.parse(job.nextAttemptAt!) % (15 * 60_000)).toBe(60_000);
      }

      // The window ends (its summary falls due): one e-mail each, to the company, with nothing a visitor typed.
      await reader.db
        .updateTable("email_outbox")
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where("submission_id", "is", null)
        .execute();
      await waitFor("the flood's summary", () => smtp.messages.length >= 3 + summaries.length, 20_000);
      await sleep(NO_MORE_MAIL_WAIT_MS);
      expect(smtp.messages).toHaveLength(3 + summaries.length);
      const received = await Promise.all(smtp.messages.slice(3).map(parseMessage));
      expect(received.map((message) => message.subject)).toEqual(summaries.map((job) => job.message.subject));
      for (const message of received) {
        expect(message.text).toMatch(/stored, held apart from your inbox/);
        expect(message.text).toContain("Contact Submissions, Held");
        expect(message.text).not.toContain(genuine.name);
        expect(message.replyTo ?? []).toEqual([]);
      }
      expect(received.map((message) => message.messageId)).toEqual(summaries.map((job) => `<${job.id}@mail.example.com>`));
    });

    it("refuses over CONTACT_HARD_LIMIT with 429, writes no row per refusal, and the dashboard counts what was held and refused", async () => {
      const cookie = await signInOverHttp(server);
      const rowsBefore = await rowCounts(reader.db);
      // A connection that had sent its two is refused by its own limit (the one asked first).
      const overOwnLimit = await Promise.all(Array.from({ length: 20 }, (_, i) => post(REPEAT_SENDER, { message: `Once more ${i}` })));
      expect(overOwnLimit.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 429));
      expect(await overOwnLimit[0]!.json()).toEqual({ error: rateLimitedMessage(PLACEHOLDER_COMPANY.phone) });
      // Everyone else, by the hard ceiling: 8 within the hour.
      const overCeiling = await Promise.all(Array.from({ length: 60 }, (_, i) => post(`198.18.0.${i}`, { message: `Past the ceiling ${i}` })));
      expect(overCeiling.map((response) => response.status)).toEqual(Array.from({ length: 60 }, () => 429));
      expect(await overCeiling[0]!.json()).toEqual({ error: busyMessage(PLACEHOLDER_COMPANY.phone) });
      // Until the hour's first enquiry, a moment ago, leaves the window.
      expect(Number(overCeiling[59]!.headers.get("retry-after"))).toBeGreaterThan(3000);

      const dashboard = visibleText(await (await fetch(`${server.url}/admin`, { headers: { cookie } })).text());
      expect(dashboard).toMatch(
        /5 enquiries arrived during a flood in the last 24 hours, after more than 3 had arrived within an hour \(CONTACT_SITE_LIMIT\); the last at .+ They are stored and held apart/,
      );
      expect(dashboard).toContain(
        "Enquiries turned away in the last 24 hours: 60 because more than 8 arrived within an hour from everyone together (CONTACT_HARD_LIMIT); 20 because one connection had sent 2 within an hour (CONTACT_RATE_LIMIT); the last at",
      );

      // 80 refusals: no enquiry, no rate-limit event, no e-mail; only the counts of what was refused, one row per
      // kind and 15-minute period (two, or four if a quarter hour struck meanwhile).
      const { limit_counts: countsBefore, ...othersBefore } = rowsBefore;
      const { limit_counts: countsAfter, ...othersAfter } = await rowCounts(reader.db);
      expect(othersAfter).toEqual(othersBefore);
      expect(countsAfter! - countsBefore!).toBeGreaterThanOrEqual(2);
      expect(countsAfter! - countsBefore!).toBeLessThanOrEqual(4);
    });

    it("lets the admin find a genuine enquiry sent during the flood under Held, and release it to the inbox", async () => {
      const cookie = await signInOverHttp(server);
      const page = async (query: string) => visibleText(await (await fetch(`${server.url}/admin/enquiries${query}`, { headers: { cookie } })).text());

      // Held apart: not in All, but under Held, which search narrows like any view.
      const all = await page("");
      expect(all).toContain("All (3)");
      expect(all).toContain("Held (5)");
      expect(all).not.toContain(genuine.name);
      const found = await page(`?filter=held&q=${encodeURIComponent("Floodgate")}`);
      expect(found).toContain(genuine.name);
      expect(found).toContain("Held in a flood");
      expect(found).toContain("Held apart from your inbox, with no e-mail of its own: Arrived during a flood");
      expect(found).not.toContain("Bot 0");

      const { id } = await reader.db.selectFrom("contact_submissions").select("id").where("name", "=", genuine.name).executeTakeFirstOrThrow();
      const released = await postAdminForm(server, cookie, "/admin/enquiries?filter=held", { intent: "not-spam", id });
      expect(released.status).toBe(200);
      expect(visibleText(released.text)).toContain("Released from Held: it is in your inbox now.");

      const after = await page("");
      expect(after).toContain("All (4)");
      expect(after).toContain("Held (4)");
      expect(after).toContain(genuine.name);
      const row = await reader.db
        .selectFrom("contact_submissions")
        .select(["spam_signals", "spam_reason", "is_read"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ spam_signals: null, spam_reason: null });
    });
  });

  describe("in the domain, with the clock moved and two instances storing at once", () => {
    let testDb: TestDatabase;
    let a: Database;
    let b: Database;
    let smtp: TestSmtpServer;
    const workers: OutboxWorker[] = [];
    const logged: string[] = [];
    const log = plainLog((line) => void logged.push(line));
    let clock = new Date("2026-11-26T10:01:00.000Z");

    /** One instance of the app on `db`, as boot makes it, with the limits under test. */
    function instance(db: Db, contact: EnquiryServices["contact"]): EnquiryServices & { tally: ReturnType<typeof createTally> } {
      return {
        db,
        // A transaction each: the two instances share one SQLite connection here, which two grouped committers could not.
        transactions: { run: (work) => db.transaction().execute(work) },
        clock: { now: () => clock, uncertaintyMs: 0 },
        formTokens: createFormTokens(createSecrets(db)),
        outbox: createOutboxSignal(),
        company: PLACEHOLDER_COMPANY,
        mail: MAIL,
        contact,
        // Written when the test says (flush), not on a timer mid-count.
        tally: createTally(db, log, { flushMs: 3_600_000 }),
        refusals: createRefusalMemory(),
        publicUrl: "https://lettings.example.com",
        log,
        metrics: NO_METRICS,
      };
    }

    const submit = (services: EnquiryServices, ip: string, message: string, at = clock) =>
      submitEnquiry(services, { input: { ...validEnquiry, message }, clientIp: ip, tokenRequired: false, now: at });

    beforeAll(async () => {
      smtp = await startSmtpServer();
      testDb = await backend.createDatabase({ migrated: true });
      a = testDb.open();
      // Two instances of one PostgreSQL fleet each have their own pool. SQLite's instances are processes on one
      // machine: two connections in this one process would block each other's thread, so they share one here.
      b = backend.name === "postgres" ? testDb.open() : a;
    });

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
      await smtp?.stop();
      await testDb?.cleanup();
    });

    it("writes one summary per 15-minute window for the whole fleet, counting that window's held enquiries, sent once", async () => {
      const contact = { rateLimit: 100, siteLimit: 2, hardLimit: 1000 };
      const [onA, onB] = [instance(a.db, contact), instance(b.db, contact)];
      expect((await submit(onA, "192.0.2.1", "Quiet one")).ok).toBe(true);
      expect((await submit(onB, "192.0.2.2", "Quiet two")).ok).toBe(true);

      // Ten minutes into the 10:00 window: six at once, three on each instance.
      const first = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submit(i % 2 ? onA : onB, `203.0.113.${i}`, `First wave ${i}`, new Date("2026-11-26T10:05:00.000Z"))),
      );
      expect(first.map((result) => result.ok && result.held)).toEqual(Array.from({ length: 6 }, () => true));
      // The 10:15 window: three more.
      const second = await Promise.all(
        Array.from({ length: 3 }, (_, i) => submit(i % 2 ? onA : onB, `203.0.113.${10 + i}`, `Second wave ${i}`, new Date("2026-11-26T10:20:00.000Z"))),
      );
      expect(second.map((result) => result.ok && result.held)).toEqual([true, true, true]);

      const summaries = await summaryJobs(a.db);
      expect(summaries.map((job) => job.id)).toEqual([
        floodSummaryJobId(new Date("2026-11-26T10:00:00.000Z")),
        floodSummaryJobId(new Date("2026-11-26T10:15:00.000Z")),
      ]);
      expect(summaries.map((job) => job.message.subject)).toEqual([
        "6 enquiries arrived during a flood; review them",
        "3 enquiries arrived during a flood; review them",
      ]);
      expect(summaries.map((job) => job.nextAttemptAt)).toEqual(["2026-11-26T10:16:00.000Z", "2026-11-26T10:31:00.000Z"]);
      expect(summaries[0]!.message.text).toContain("https://lettings.example.com/admin/enquiries?filter=held");
      // Only the two before the flood have e-mails of their own.
      const own = await a.db.selectFrom("email_outbox").select("id").where("submission_id", "is not", null).execute();
      expect(own).toHaveLength(2);
      expect(await readTally(a.db, new Date("2026-11-26T00:00:00.000Z"))).toMatchObject({ "contact-held": { count: 9 } });

      // Both instances' workers, through a real SMTP server: each summary goes once, after its window.
      const mailer = createSmtpMailer(smtp.url, { insecure: true });
      let workerClock = new Date("2026-11-26T10:17:00.000Z");
      for (const db of [a.db, b.db]) workers.push(startOutboxWorker({ db, mailer, log, pollMs: 200, now: () => workerClock }));
      await waitFor("the two notifications and the first summary", () => smtp.messages.length >= 3, 20_000);
      await sleep(1_000);
      expect((await subjectsReceived(smtp)).filter((subject) => subject.includes("during a flood"))).toEqual([
        "6 enquiries arrived during a flood; review them",
      ]);

      workerClock = new Date("2026-11-26T10:32:00.000Z");
      await waitFor("the second summary", () => smtp.messages.length >= 4, 20_000);
      await sleep(1_000);
      const subjects = await subjectsReceived(smtp);
      expect(subjects).toHaveLength(4);
      expect(subjects.filter((subject) => subject.includes("during a flood"))).toEqual([
        "6 enquiries arrived during a flood; review them",
        "3 enquiries arrived during a flood; review them",
      ]);
    });

    it("refuses from memory after the first refusal: no query, no row, and the dashboard's count written as one row", async () => {
      await a.db.deleteFrom("rate_limit_events").execute();
      clock = new Date("2026-11-26T12:01:00.000Z");
      let queries = 0;
      const counting: KyselyPlugin = {
        transformQuery: (args) => {
          queries += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const db = (a.db as Kysely<DatabaseSchema>).withPlugin(counting);
      const services = instance(db, { rateLimit: 2, siteLimit: 2, hardLimit: 4 });

      expect((await submit(services, "198.51.100.1", "One")).ok).toBe(true);
      expect((await submit(services, "198.51.100.1", "Two")).ok).toBe(true);
      // Its own limit: the first refusal asks the database, the next 200 do not.
      expect(await submit(services, "198.51.100.1", "Refused, asked")).toMatchObject({ ok: false, status: 429 });
      const rowsBefore = await rowCounts(a.db);
      queries = 0;
      for (let i = 0; i < 200; i++) expect(await submit(services, "198.51.100.1", `Refused ${i}`)).toMatchObject({ ok: false, status: 429 });
      expect(queries).toBe(0);

      // Held, then the hard ceiling: the same for everyone.
      expect(await submit(services, "198.51.100.2", "Three")).toMatchObject({ ok: true, held: true });
      expect(await submit(services, "198.51.100.3", "Four")).toMatchObject({ ok: true, held: true });
      expect(await submit(services, "198.51.100.4", "Over the ceiling, asked")).toMatchObject({ ok: false, status: 429 });
      const rowsHeld = await rowCounts(a.db);
      queries = 0;
      for (let i = 0; i < 200; i++) expect(await submit(services, `198.18.0.${i}`, `Over the ceiling ${i}`)).toMatchObject({ ok: false, status: 429 });
      expect(queries).toBe(0);
      expect(await rowCounts(a.db)).toEqual(rowsHeld);

      // The counts go to the database as one row per kind of refusal, whatever their number.
      await services.tally.flush();
      const rowsAfter = await rowCounts(a.db);
      expect(rowsAfter.limit_counts! - rowsHeld.limit_counts!).toBe(2);
      expect(rowsAfter.contact_submissions! - rowsBefore.contact_submissions!).toBe(2);
      expect(await readTally(a.db, new Date("2026-11-26T12:00:00.000Z"))).toMatchObject({
        "contact-refused-address": { count: 201 },
        "contact-refused-ceiling": { count: 201 },
        "contact-held": { count: 2 },
      });
    });
  });
});
