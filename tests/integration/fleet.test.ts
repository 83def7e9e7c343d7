/**
 * Several instances of the built server on one PostgreSQL database (issue 16,
 * decision 032): what one does, the others see at once; what must happen
 * once (migrations, an e-mail) happens once, also when an instance is killed
 * mid-way or its clock is wrong. (A scheduled publish with two instances:
 * website-schedule.test.ts; retention from several at once: retention.test.ts.)
 * PostgreSQL only: a fleet shares a database server; SQLite serves one machine.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "~/projects/projects.server";
import { migrations } from "~/platform/db/migrations";
import type { Database } from "~/platform/db/db.server";
import { TEST_ADMIN_ENV, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { postJson, validEnquiry } from "../support/enquiries";
import { skewedClockEnv, startFleet, type Fleet } from "../support/fleet";
import { assertBuilt, type SpawnedServer } from "../support/server";
import { parseMessage, startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { waitFor } from "../support/wait";
import { TEST_ACTOR } from "../support/actors";

beforeAll(() => assertBuilt());

/** Starting instances one after another on a busy 2-core machine. */
const FLEET_START_MS = 180_000;

const MAIL_ENV = {
  MAIL_FROM: "Example Property <enquiries@mail.example.com>",
  CONTACT_NOTIFY_TO: "office@example.com",
  SMTP_INSECURE: "true",
  // Every request comes from 127.0.0.1, which sends at most two enquiries per fleet here; the
  // test that is about the limit sends its own X-Forwarded-For.
  TRUST_PROXY: "loopback",
  CONTACT_RATE_LIMIT: "3",
};

/** The notification jobs of the fleet's database. */
async function outboxJobs(reader: Database) {
  return reader.db.selectFrom("email_outbox").select(["id", "submission_id", "status", "attempts"]).execute();
}

async function postEnquiry(server: SpawnedServer, message: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const response = await postJson(server.url, { ...validEnquiry, message, ...extra }, headers);
  const body = (await response.json()) as { id?: string; error?: string };
  return { status: response.status, id: body.id, error: body.error, retryAfter: response.headers.get("retry-after") };
}

/** Message-IDs of what the SMTP server accepted, in order. */
async function acceptedMessageIds(smtp: TestSmtpServer): Promise<string[]> {
  return (await Promise.all(smtp.messages.map(parseMessage))).map((message) => message.messageId ?? "");
}

describe.each(backends.filter((backend) => backend.name === "postgres"))("a fleet of two instances on $name", () => {
  let fleet: Fleet;
  let smtp: TestSmtpServer;
  let reader: Database;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // Both start at once on an empty database: their migrations race.
    fleet = await startFleet({ size: 2, env: { ...TEST_ADMIN_ENV, ...MAIL_ENV, SMTP_URL: smtp.url } });
    [a, b] = fleet.instances as [SpawnedServer, SpawnedServer];
    reader = fleet.reader();
  }, FLEET_START_MS);

  afterAll(async () => {
    await fleet?.stop();
    await smtp?.stop();
  });

  it("applies each migration once when both start at once", async () => {
    const applied = fleet.instances.filter((instance) => instance.stdout().includes("(applied "));
    expect(applied).toHaveLength(1);
    const rows = await reader.db
      .selectFrom("kysely_migration" as never)
      .select("name" as never)
      .execute();
    expect(rows.map((row) => (row as { name: string }).name).sort()).toEqual(Object.keys(migrations).sort());
    // And the admin both were told to create exists once.
    expect(await reader.db.selectFrom("admin_users").select("email").execute()).toHaveLength(1);
  });

  it("keeps an admin signed in on one signed in on the other, and signed out on both at once", async () => {
    const cookie = await signInOverHttp(a);
    const onB = await fetch(`${b.url}/api/admin/enquiries`, { headers: { cookie } });
    expect(onB.status).toBe(200);
    const signOut = await postAdminForm(b, cookie, "/admin/sign-out", {});
    expect(signOut.status).toBe(302);
    expect((await fetch(`${a.url}/api/admin/enquiries`, { headers: { cookie } })).status).toBe(401);
  });

  it("shows a project change made on one on the other's / at once", async () => {
    const project = await createProject(
      reader.db,
      {
        title: "Fleet Terrace refit",
        category: "Kitchen Renovation",
        description: "Seen by every instance.",
        duration: "1 week",
        budget: "£1,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
      },
      TEST_ACTOR,
    );
    // Both render / now, so each has the page in its cache.
    for (const instance of [a, b]) expect(await (await fetch(`${instance.url}/`)).text()).toContain("Fleet Terrace refit");

    const cookie = await signInOverHttp(a);
    const hidden = await postAdminForm(a, cookie, "/admin/projects", { intent: "toggle-project", id: project.id, active: "false" });
    expect(hidden.status).toBeLessThan(400);
    expect(await (await fetch(`${b.url}/`)).text()).not.toContain("Fleet Terrace refit");

    const shown = await postAdminForm(b, cookie, "/admin/projects", { intent: "toggle-project", id: project.id, active: "true" });
    expect(shown.status).toBeLessThan(400);
    expect(await (await fetch(`${a.url}/`)).text()).toContain("Fleet Terrace refit");
  });

  it("shares the contact limit: the places one instance gave are gone on the other", async () => {
    // CONTACT_RATE_LIMIT=3, counted in the database: two enquiries on A and one on B use the client's places.
    const from = { "x-forwarded-for": "203.0.113.77" };
    expect((await postEnquiry(a, "First place, on A", {}, from)).status).toBe(201);
    expect((await postEnquiry(b, "Second place, on B", {}, from)).status).toBe(201);
    expect((await postEnquiry(a, "Third place, on A", {}, from)).status).toBe(201);
    const refusedOnB = await postEnquiry(b, "Over the limit on B", {}, from);
    const refusedOnA = await postEnquiry(a, "Over the limit on A", {}, from);
    expect([refusedOnB.status, refusedOnA.status]).toEqual([429, 429]);
    expect(refusedOnB.retryAfter).toMatch(/^\d+$/);
  });

  it("sends each enquiry's e-mail exactly once, even when the instance sending it is killed with SIGKILL mid-send", async () => {
    // The e-mails of the enquiries before are out, so the next message the SMTP server sees is this one's.
    await waitFor("earlier e-mails to be sent", async () => (await outboxJobs(reader)).every((row) => row.status === "sent"), 30_000);
    const hold = smtp.holdReplies();
    // A queues it and its worker, woken at once, claims it: B only polls every 5 s.
    const { status, id } = await postEnquiry(a, "Killed while its e-mail was being sent");
    expect(status).toBe(201);
    const { sessionId } = await hold.arrived;
    a.child.kill("SIGKILL");
    expect(await a.exited).toEqual({ code: null, signal: "SIGKILL" });
    // The message was transmitted but never acknowledged (250): not delivered.
    await waitFor("the SMTP server to see the sender gone", () => smtp.sessionClosed(sessionId));
    hold.release();
    const job = (await outboxJobs(reader)).find((row) => row.submission_id === id)!;
    expect(job).toMatchObject({ status: "sending", attempts: 1 });

    // B takes the job over once A's lease has run out, and sends it once.
    await waitFor("B to send the e-mail A was sending", async () => (await outboxJobs(reader)).find((row) => row.id === job.id)?.status === "sent", 60_000);
    const ids = await acceptedMessageIds(smtp);
    expect(ids.filter((messageId) => messageId === `<${job.id}@mail.example.com>`)).toHaveLength(1);
    expect((await outboxJobs(reader)).find((row) => row.id === job.id)).toMatchObject({ status: "sent", attempts: 2 });
    // Every other enquiry of this file: one e-mail each.
    const sent = (await outboxJobs(reader)).filter((row) => row.status === "sent");
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(sent.length);
  });
});

describe.each(backends.filter((backend) => backend.name === "postgres"))("an instance whose clock is 10 minutes ahead, on $name", () => {
  let fleet: Fleet;
  let smtp: TestSmtpServer;
  let reader: Database;
  let onTime: SpawnedServer;
  let ahead: SpawnedServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    fleet = await startFleet({ size: 1, env: { ...MAIL_ENV, SMTP_URL: smtp.url }, migrated: true });
    onTime = fleet.instances[0]!;
    ahead = await fleet.start(skewedClockEnv(600));
    reader = fleet.reader();
  }, FLEET_START_MS);

  afterAll(async () => {
    await fleet?.stop();
    await smtp?.stop();
  });

  it("runs on a skewed clock (the test's premise)", async () => {
    const served = new Date((await fetch(`${ahead.url}/healthz`)).headers.get("date")!);
    expect(served.getTime() - Date.now()).toBeGreaterThan(500_000);
  });

  it("stamps the contact form's token on the database's clock: a person's form from it is not 'too fast' on the other", async () => {
    const page = await (await fetch(`${ahead.url}/`)).text();
    const formToken = /name="formToken" value="([^"]+)"/.exec(page)?.[1];
    expect(formToken).toBeTruthy();
    // A person takes more than 3 seconds to fill in the form. The token's time is rounded up to the
    // next whole second and judged with the clock readings' uncertainty, so 3.5 s could still be too fast.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const { status, id } = await postEnquiry(onTime, "Filled in on the skewed instance's page", { formToken: formToken! });
    expect(status).toBe(201);
    const row = await reader.db.selectFrom("contact_submissions").select(["spam_signals", "spam_reason"]).where("id", "=", id!).executeTakeFirstOrThrow();
    expect(row.spam_reason).toBeNull();
    expect(String(row.spam_signals ?? "")).not.toContain("too-fast");
  });

  it("leaves another instance's e-mail lease alone: the e-mail goes once", async () => {
    await waitFor("earlier e-mails to be sent", async () => (await outboxJobs(reader)).every((row) => row.status === "sent"), 30_000);
    const hold = smtp.holdReplies();
    const { id } = await postEnquiry(onTime, "Sent by the instance on time, watched by the one ahead");
    await hold.arrived;
    // On its own clock the lease ran out 10 minutes ago; it polls every 5 s.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    hold.release();
    await waitFor("the e-mail to be sent", async () => (await outboxJobs(reader)).find((row) => row.submission_id === id)?.status === "sent", 20_000);
    const job = (await outboxJobs(reader)).find((row) => row.submission_id === id)!;
    expect(job.attempts).toBe(1);
    expect((await acceptedMessageIds(smtp)).filter((messageId) => messageId === `<${job.id}@mail.example.com>`)).toHaveLength(1);
  });
});
