/**
 * UK GDPR requests about one e-mail address (issue 5): what is held, as the
 * admin's page counts it and as the JSON file hands it over, and erasing it,
 * with and without JavaScript. Through the built server, signed in, on each
 * backend; the enquiries and their e-mail jobs are stored as the contact form
 * stores them, with e-mail on.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DATA_REQUESTS_TEXT } from "~/admin/DataRequestsPage";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import type { DataExport } from "~/enquiries/data-requests.server";
import { DELETE_BATCH, saveEnquiry, type SaveEnquiryOptions } from "~/enquiries/enquiries.server";
import { sendReply } from "~/enquiries/replies.server";
import type { Enquiry } from "~/enquiries/schema";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

/** E-mail on: a real enquiry gets its notification (and here a reply from the team), spam none. */
const MAIL: SaveEnquiryOptions = {
  mail: { from: "Website <website@example.com>", notifyTo: ["office@example.com"] },
  company: PLACEHOLDER_COMPANY,
};

const ADDRESS = "ottoline.quarterman@example.net";
/** How the admin types it: other case, spaces around. */
const TYPED = "  Ottoline.QUARTERMAN@Example.net ";
const TYPED_TRIMMED = TYPED.trim();

const HERS: Enquiry[] = [
  { name: "Ottoline Quarterman", email: "Ottoline.Quarterman@Example.NET", phone: "020 7946 0777", userType: "landlord", message: "Four flats on Quince Row." },
];
const HER_SPAM: Enquiry = { name: "Ottoline Q", email: ADDRESS, phone: undefined, userType: "other", message: "Cheap links, cheap links." };
/** Other people, one with an address that contains hers. */
const OTHERS: Enquiry[] = [
  { name: "Barnaby Rudge", email: "barnaby.rudge@example.com", phone: undefined, userType: "tenant", message: "A leaking roof in Chigwell." },
  { name: "Look Alike", email: `x${ADDRESS}`, phone: undefined, userType: "investor", message: "Similar address, different person." },
];

beforeAll(() => assertBuilt());

describe.each(backends)("UK GDPR data requests on $name", (backend) => {
  const site = useSite(backend);
  let hers: string[];
  let herSpam: string;
  let others: string[];

  beforeEach(async () => {
    const { db } = site;
    await db.deleteFrom("email_outbox").execute();
    await db.deleteFrom("contact_submissions").execute();
    hers = [];
    for (const enquiry of HERS) hers.push((await saveEnquiry(db, enquiry, MAIL)).id);
    await sendReply(
      db,
      hers[0]!,
      { subject: "Your flats", body: `Hello ${HERS[0]!.name}, we can help.` },
      { actor: { kind: "cli", command: "seed-demo" }, mail: MAIL.mail! },
    );
    herSpam = (await saveEnquiry(db, HER_SPAM, { ...MAIL, verdict: { kind: "spam", signals: ["links"] } })).id;
    others = [];
    for (const enquiry of OTHERS) others.push((await saveEnquiry(db, enquiry, MAIL)).id);
  });

  const page = (query: Record<string, string>) =>
    fetch(`${site.server.url}/admin/data-requests?${new URLSearchParams(query)}`, { headers: { cookie: site.cookie } });

  /** The form's POST, as a browser without JavaScript sends it (to the page's URL). */
  const post = (fields: Record<string, string>, query: Record<string, string> = { email: fields.email ?? "" }) =>
    fetch(`${site.server.url}/admin/data-requests?${new URLSearchParams(query)}`, {
      method: "POST",
      headers: { cookie: site.cookie, origin: site.server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });

  /** Everything stored, to prove that a refused request changed nothing. */
  async function snapshot() {
    const { db } = site;
    return {
      submissions: await db.selectFrom("contact_submissions").select(["id", "email"]).orderBy("id").execute(),
      jobs: await db.selectFrom("email_outbox").select(["id", "submission_id"]).orderBy("id").execute(),
    };
  }

  it("counts what is held for an address, whatever its case and spaces, spam included", async () => {
    const response = await page({ email: TYPED });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(DATA_REQUESTS_TEXT.title);
    expect(html).toContain(`2 submissions (1 of them spam) and 2 e-mail jobs are held for ${TYPED_TRIMMED}.`);
    expect(html).toContain(DATA_REQUESTS_TEXT.download);
    // The others are not named, nor counted.
    for (const other of OTHERS) expect(html).not.toContain(other.name);

    const nobody = await (await page({ email: "nobody@example.org" })).text();
    expect(nobody).toContain("Nothing is held for nobody@example.org.");
    expect(nobody).not.toContain(`>${DATA_REQUESTS_TEXT.erase}<`);
  });

  it("hands over everything held about the address as a JSON file, and nothing about anybody else", async () => {
    const response = await page({ email: TYPED, format: "json" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="data-request-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toMatch(/\bno-store\b/);
    const text = await response.text();
    const file = JSON.parse(text) as DataExport;

    expect(file.email).toBe(TYPED_TRIMMED);
    expect(Date.parse(file.exported_at)).not.toBeNaN();
    const stored = await site.db
      .selectFrom("contact_submissions")
      .selectAll()
      .where("id", "in", [...hers, herSpam])
      .execute();
    // Every field of each submission, as stored, newest first (the folded copy of the address is only an index).
    // No notes were written about her (tests/integration/enquiry-notes.test.ts exports some).
    expect(file.submissions.map((submission) => submission.notes)).toEqual(file.submissions.map(() => []));
    expect(file.submissions.map(({ email_jobs: _, notes: __, replies: ___, ...submission }) => submission)).toEqual(
      stored
        // The contact form's: no valuation details (a valuation request's are in tests/integration/valuation.test.ts).
        .map(({ email_folded: _, details: __, ...row }) => ({
          ...row,
          valuation: null,
          is_read: toBoolean(row.is_read),
          created_at: toIsoString(row.created_at),
          // Her first enquiry was replied to, so it is Contacted (decision 059).
          status_changed_at: row.status_changed_at === null ? null : toIsoString(row.status_changed_at),
          first_response_at: row.first_response_at === null ? null : toIsoString(row.first_response_at),
          assigned_at: row.assigned_at === null ? null : toIsoString(row.assigned_at),
        }))
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)),
    );

    const real = file.submissions.find((submission) => submission.id === hers[0])!;
    expect(real.email_jobs.map((job) => job.kind).sort()).toEqual(["notification", "reply"]);
    // The team's replies are held about her too (decision 059).
    expect(real.replies.map((reply) => [reply.subject, reply.body])).toEqual([["Your flats", `Hello ${HERS[0]!.name}, we can help.`]]);
    for (const job of real.email_jobs) {
      expect(job).toMatchObject({ status: "queued", attempts: 0, sent_at: null });
      expect(Date.parse(job.created_at)).not.toBeNaN();
      expect(Date.parse(job.next_attempt_at!)).not.toBeNaN();
      // The e-mail's words are personal data too: they are handed over.
      expect(job.content).toMatchObject({ subject: expect.any(String) as string, text: expect.stringContaining(HERS[0]!.name) as string });
    }
    const notification = real.email_jobs.find((job) => job.kind === "notification")!;
    expect(notification.content).toMatchObject({ text: expect.stringContaining(HERS[0]!.message) as string });
    expect(file.submissions.find((submission) => submission.id === herSpam)!.email_jobs).toEqual([]);

    for (const other of OTHERS) {
      expect(text).not.toContain(other.name);
      expect(text).not.toContain(other.message);
    }
    for (const id of others) expect(text).not.toContain(id);
  });

  it("without JavaScript, asks on the page before erasing, and changes nothing until confirmed", async () => {
    const before = await snapshot();
    const response = await post({ intent: "erase", email: TYPED });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(DATA_REQUESTS_TEXT.eraseConfirm(TYPED_TRIMMED, 2));
    // The confirming form carries confirmed=yes, and there is a way back.
    expect(html).toMatch(/<input type="hidden" name="confirmed" value="yes"\/>/);
    expect(html).toContain(`>${DATA_REQUESTS_TEXT.cancel}</a>`);
    expect(await snapshot()).toEqual(before);
  });

  it("erases exactly that address's submissions and their e-mail jobs, and says so without naming anybody in the log", async () => {
    const response = await post({ intent: "erase", email: TYPED, confirmed: "yes" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Erased 2 submissions for ${TYPED_TRIMMED}.`);
    expect(html).toContain("Nothing is held for");

    const after = await snapshot();
    expect(after.submissions.map((row) => row.id).sort()).toEqual([...others].sort());
    // Only the others' jobs are left: their notifications.
    expect(after.jobs.map((job) => job.submission_id).sort()).toEqual([...others].sort());
    expect(site.server.stdout() + site.server.stderr()).not.toMatch(new RegExp(ADDRESS.replace(/\./g, "\\."), "i"));
  });

  it("erases an address that sent hundreds a batch at a time, each batch with its audit entry, and leaves the others", async () => {
    const { db } = site;
    for (let i = 0; i < 45; i++) await saveEnquiry(db, { ...HERS[0]!, message: `Flat ${i} on Quince Row.` }, MAIL);
    const auditedBefore = await erasureCounts();
    const response = await post({ intent: "erase", email: TYPED, confirmed: "yes" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Erased 47 submissions for ${TYPED_TRIMMED}.`);
    expect((await erasureCounts()).slice(auditedBefore.length)).toEqual([DELETE_BATCH, DELETE_BATCH, 47 - 2 * DELETE_BATCH]);
    const after = await snapshot();
    expect(after.submissions.map((row) => row.id).sort()).toEqual([...others].sort());
    expect(after.jobs.map((job) => job.submission_id).sort()).toEqual([...others].sort());
  });

  /** The count of each erasure's audit entry, oldest first. */
  async function erasureCounts(): Promise<number[]> {
    const entries = await site.db.selectFrom("audit_log").select("details").where("action", "=", "data-erased").orderBy("id").execute();
    return entries.map((entry) => (JSON.parse(entry.details ?? "{}") as { count: number }).count);
  }

  if (backend.name === "sqlite") {
    it("leaves no trace of an erased enquiry in the database's files", async () => {
      const { db } = site;
      const secret = `Erase me please ${Date.now()}: 7 Quince Row, Chigwell`;
      await saveEnquiry(db, { ...HERS[0]!, message: secret }, MAIL);
      const files = () =>
        readdirSync(site.database.env.DATA_DIR!)
          .filter((name) => name.startsWith("app.sqlite"))
          .map((name) => readFileSync(path.join(site.database.env.DATA_DIR!, name)));
      expect(
        files().some((bytes) => bytes.includes(secret)),
        "the message is on disk before",
      ).toBe(true);

      const response = await post({ intent: "erase", email: TYPED, confirmed: "yes" });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(
        files().some((bytes) => bytes.includes(secret)),
        "no copy of the message is left in the file or its log",
      ).toBe(false);
    });
  }

  it("matches an address with full Unicode case folding on every backend: STRASSE and Straße are one address", async () => {
    const { db } = site;
    const folded = (
      await saveEnquiry(db, { name: "Jürgen Straße", email: "JÜRGEN@STRASSE.example", phone: undefined, userType: "landlord", message: "Ein Haus." }, MAIL)
    ).id;
    const html = await (await page({ email: "jürgen@straße.example" })).text();
    expect(html).toContain("1 submission and 1 e-mail job are held for jürgen@straße.example.");

    const response = await post({ intent: "erase", email: "Jürgen@Straße.example", confirmed: "yes" });
    expect(await response.text()).toContain("Erased 1 submission for Jürgen@Straße.example.");
    expect((await snapshot()).submissions.map((row) => row.id)).not.toContain(folded);
  });

  it.each([
    ["not an address", "not-an-address"],
    ["empty", ""],
    ["two addresses", `${ADDRESS}, barnaby.rudge@example.com`],
    ["a header injection", `${ADDRESS}\r\nBcc: barnaby.rudge@example.com`],
  ])("refuses an e-mail that is %s with 400 and a clear message, changing nothing", async (_, email) => {
    const before = await snapshot();
    const shown = await page({ email });
    expect(shown.status).toBe(400);
    expect(await shown.text()).toContain(DATA_REQUESTS_TEXT.invalid);

    for (const confirmed of ["", "yes"]) {
      const response = await post({ intent: "erase", email, confirmed });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(DATA_REQUESTS_TEXT.invalid);
    }
    // The JSON file is not handed out for it either: the page says what is wrong.
    const file = await page({ email, format: "json" });
    expect(file.status).toBe(400);
    expect(file.headers.get("content-disposition")).toBeNull();
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an unknown intent with 400, changing nothing", async () => {
    const before = await snapshot();
    const response = await post({ intent: "erase-everything", email: ADDRESS, confirmed: "yes" });
    expect(response.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
