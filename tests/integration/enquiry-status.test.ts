/**
 * The pipeline's Status of an enquiry (issue 22, decision 055), over HTTP on
 * the built server, on both databases: set on the card's form (a plain POST),
 * recorded with who and when and in the audit log in the same transaction;
 * Not proceeding asks for its reason (chosen or typed); the filter by status
 * sits beside the specification's tabs, the counts follow, the JSON API and
 * the CSV take it too; bad input changes nothing; an Editor is refused.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { INBOX_TEXT } from "~/admin/texts";
import { createAdmin } from "~/auth/admins.server";
import { changeRole } from "~/auth/team.server";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { NOT_PROCEEDING_REASONS, STATUS_LABELS } from "~/enquiries/pipeline";
import type { Db } from "~/platform/db/db.server";
import { TEST_ACTOR } from "../support/actors";
import { TEST_ADMIN, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { NO_MAIL, filedAsSpam } from "../support/enquiries";
import { visibleText } from "../support/html";
import { useSite } from "../support/sites";

async function enquiry(db: Db, name: string): Promise<string> {
  const { id } = await saveEnquiry(
    db,
    { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, phone: undefined, userType: "landlord", message: `A flat to let, from ${name}.` },
    { ...NO_MAIL, verdict: filedAsSpam(undefined) },
  );
  return id;
}

describe.each(backends)("the status of an enquiry on $name", (backend) => {
  const site = useSite(backend);
  const statusOf = (id: string) =>
    site.db
      .selectFrom("contact_submissions")
      .select(["status", "status_reason", "status_changed_by", "status_changed_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const setStatus = (fields: Record<string, string>) => site.postForm("/admin/enquiries", { intent: "set-status", ...fields });
  const signedIn = (path: string) => site.get(path, { cookie: site.cookie });
  const inbox = async (query: string) =>
    JSON.parse((await signedIn(`/api/admin/enquiries?${query}`)).text) as {
      submissions: Array<{ id: string; status: string }>;
      counts: Record<string, number>;
      statusCounts: Record<string, number>;
    };

  it("starts New; a member moves it on the card, recorded with who and when and in the audit log", async () => {
    const id = await enquiry(site.db, "Nina Newcomer");
    expect(await statusOf(id)).toMatchObject({ status: "new", status_changed_by: null });

    const answer = await setStatus({ id, status: "valuation-booked" });
    expect(answer.status).toBe(200);
    expect(visibleText(answer.text)).toContain(INBOX_TEXT.status.changed("Valuation booked"));
    const stored = await statusOf(id);
    expect(stored).toMatchObject({ status: "valuation-booked", status_reason: null, status_changed_by: TEST_ADMIN.email });
    expect(stored.status_changed_at).not.toBeNull();
    const entry = await site.db
      .selectFrom("audit_log")
      .select(["action", "details", "actor_label"])
      .where("target_id", "=", id)
      .where("action", "=", "enquiry-status-changed")
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_label: TEST_ADMIN.email });
    expect(JSON.parse(entry.details!)).toEqual({ status: "valuation-booked" });

    // The card says it, with who and when.
    const page = visibleText((await signedIn("/admin/enquiries?status=valuation-booked")).text);
    expect(page).toContain("Nina Newcomer");
    expect(page).toMatch(new RegExp(`Valuation booked \\(\\s*changed by ${TEST_ADMIN.email.replace(/\./g, "\\.")}, \\d`));
  });

  it("asks why when it is Not proceeding, and keeps a reason chosen or typed; another status clears it", async () => {
    const id = await enquiry(site.db, "Owen Offer");
    const missing = await setStatus({ id, status: "not-proceeding" });
    expect(missing.status).toBe(400);
    expect(visibleText(missing.text)).toContain(INBOX_TEXT.status.missingReason);
    // The card shows the reason's fields for it, without JavaScript.
    expect(missing.text).toContain(`id="reason-${id}"`);
    expect((await statusOf(id)).status).toBe("new");

    expect((await setStatus({ id, status: "not-proceeding", reason: NOT_PROCEEDING_REASONS[0] })).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ status: "not-proceeding", status_reason: NOT_PROCEEDING_REASONS[0] });

    expect((await setStatus({ id, status: "not-proceeding", reason: "other", otherReason: "  Selling   instead\u0007 " })).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ status: "not-proceeding", status_reason: "Selling instead" });

    expect((await setStatus({ id, status: "not-proceeding", reason: "other", otherReason: "x".repeat(201) })).status).toBe(400);
    expect((await statusOf(id)).status_reason).toBe("Selling instead");

    expect((await setStatus({ id, status: "contacted", reason: NOT_PROCEEDING_REASONS[1] })).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ status: "contacted", status_reason: null });
  });

  it("refuses a status not on the list (400), an id that is none (400) or gone (404), and changes nothing", async () => {
    const id = await enquiry(site.db, "Paula Pending");
    const before = await statusOf(id);
    expect((await setStatus({ id, status: "won" })).status).toBe(400);
    expect((await setStatus({ id: "not-an-id", status: "contacted" })).status).toBe(400);
    expect((await setStatus({ id: "00000000-0000-4000-8000-000000000000", status: "contacted" })).status).toBe(404);
    expect(await statusOf(id)).toEqual(before);
  });

  it("filters by status beside the tabs, with counts that follow, in the page, the JSON API and the CSV", async () => {
    const marker = randomBytes(4).toString("hex");
    const instructed = await enquiry(site.db, `Ivy Instructed ${marker}`);
    const contacted = await enquiry(site.db, `Carl Contacted ${marker}`);
    await enquiry(site.db, `Nat Untouched ${marker}`);
    await setStatus({ id: instructed, status: "instructed" });
    await setStatus({ id: contacted, status: "contacted" });

    const searched = await inbox(`q=${marker}`);
    expect(searched.statusCounts).toMatchObject({ new: 1, contacted: 1, instructed: 1, "valuation-booked": 0, "not-proceeding": 0 });
    const only = await inbox(`q=${marker}&status=instructed`);
    expect(only.submissions.map((row) => row.id)).toEqual([instructed]);
    // The tabs' counts follow the status chosen.
    expect(only.counts.all).toBe(1);
    // An unknown status is every status.
    expect((await inbox(`q=${marker}&status=bogus`)).submissions).toHaveLength(3);

    const page = await signedIn(`/admin/enquiries?q=${marker}&status=contacted`);
    const text = visibleText(page.text);
    expect(text).toContain(`Carl Contacted ${marker}`);
    expect(text).not.toContain(`Ivy Instructed ${marker}`);
    expect(text).toContain(`${STATUS_LABELS.instructed} (1)`);
    // The other tabs keep the status chosen.
    expect(page.text).toMatch(/href="\/admin\/enquiries\?filter=unread&amp;q=[^"]*status=contacted"/);

    const csv = await signedIn(`/admin/enquiries.csv?q=${marker}&status=instructed`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(`Ivy Instructed ${marker}`);
    expect(csv.text).not.toContain(`Carl Contacted ${marker}`);
  });

  it("refuses an Editor (403) before the form is read", async () => {
    const id = await enquiry(site.db, "Eddie Editor");
    const email = `editor-${randomBytes(4).toString("hex")}@example.com`;
    const admin = await createAdmin(site.db, email, "an editor's long password", TEST_ACTOR);
    await changeRole(site.db, admin.id, "editor", TEST_ACTOR);
    const cookie = await signInOverHttp(site.server, { email, password: "an editor's long password" });
    const refused = await postAdminForm(site.server, cookie, "/admin/enquiries", { intent: "set-status", id, status: "instructed" });
    expect(refused.status).toBe(403);
    expect((await statusOf(id)).status).toBe("new");
  });
});
