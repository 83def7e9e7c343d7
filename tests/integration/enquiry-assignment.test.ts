/**
 * Who deals with an enquiry and when to follow it up (issue 22, decision 061),
 * over HTTP on the built server with a real SMTP server, on both databases:
 * assigned on the card to a member with the Enquiries or Owner role (the
 * member told by one e-mail through the outbox, unless they assigned it to
 * themselves), recorded in the audit log; Mine, Unassigned and a member's
 * own as filters, in the page, the JSON API and the CSV; a follow-up day,
 * with Due listing what is due today or overdue, the most overdue first, and
 * the dashboard counting it; bad input changes nothing; a member who leaves
 * the team leaves their enquiries unassigned.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DASHBOARD_TEXT, INBOX_TEXT } from "~/admin/texts";
import { createAdmin } from "~/auth/admins.server";
import { changeRole, removeMember } from "~/auth/team.server";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import type { Db } from "~/platform/db/db.server";
import { londonDate } from "~/platform/dates";
import { TEST_ACTOR } from "../support/actors";
import { TEST_ADMIN, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { NO_MAIL, filedAsSpam } from "../support/enquiries";
import { visibleText } from "../support/html";
import { useSiteWithMail } from "../support/sites";
import { parseMessage } from "../support/smtp";
import { waitFor } from "../support/wait";

const PASSWORD = "a member's long password";

async function enquiry(db: Db, name: string): Promise<string> {
  const { id } = await saveEnquiry(
    db,
    { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, phone: undefined, userType: "landlord", message: `Private words of ${name}.` },
    { ...NO_MAIL, verdict: filedAsSpam(undefined) },
  );
  return id;
}

/** A UK day `days` from today: "2026-11-26". */
function dayFromToday(days: number): string {
  return londonDate(new Date(Date.now() + days * 86_400_000));
}

describe.each(backends)("assignment and follow-up of an enquiry on $name", (backend) => {
  const { site, smtp } = useSiteWithMail(backend, { PUBLIC_URL: "https://lettings.example.com" });
  const post = (fields: Record<string, string>) => site.postForm("/admin/enquiries", fields);
  const signedIn = (path: string, cookie = site.cookie) => site.get(path, { cookie });
  const rowOf = (id: string) =>
    site.db.selectFrom("contact_submissions").select(["assigned_to", "assigned_at", "follow_up_on"]).where("id", "=", id).executeTakeFirstOrThrow();
  const inbox = async (query: string, cookie = site.cookie) =>
    JSON.parse((await signedIn(`/api/admin/enquiries?${query}`, cookie)).text) as {
      submissions: Array<{ id: string; name: string }>;
      counts: Record<string, number>;
      due: number;
    };
  const member = async (role: "enquiries" | "editor" | "owner", name?: string) => {
    const email = `${role}-${randomBytes(4).toString("hex")}@example.com`;
    const admin = await createAdmin(site.db, email, PASSWORD, TEST_ACTOR);
    if (role !== "owner") await changeRole(site.db, admin.id, role, TEST_ACTOR);
    if (name) await site.db.updateTable("admin_users").set({ name }).where("id", "=", admin.id).execute();
    return { id: admin.id, email };
  };
  const me = async () => (await site.db.selectFrom("admin_users").select("id").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow()).id;
  const assignmentJobs = (id: string) =>
    site.db.selectFrom("email_outbox").select("id").where("submission_id", "=", id).where("kind", "=", "assignment").execute();

  it("assigns to a member of the Enquiries role, audited, and tells them by one e-mail that links to their own enquiries", async () => {
    const id = await enquiry(site.db, "Priya Portfolio");
    const colleague = await member("enquiries", "Sam Colleague");

    const answer = await post({ intent: "assign", id, assignee: colleague.id });
    expect(answer.status).toBe(200);
    expect(visibleText(answer.text)).toContain(INBOX_TEXT.assign.assigned);
    const stored = await rowOf(id);
    expect(stored.assigned_to).toBe(colleague.id);
    expect(stored.assigned_at).not.toBeNull();
    const entry = await site.db
      .selectFrom("audit_log")
      .select(["details", "actor_label"])
      .where("target_id", "=", id)
      .where("action", "=", "enquiry-assigned")
      .executeTakeFirstOrThrow();
    expect(entry.actor_label).toBe(TEST_ADMIN.email);
    expect(JSON.parse(entry.details!)).toEqual({ assignee: colleague.id });

    await waitFor("the assignment e-mail", () => smtp.messages.some((message) => message.envelopeTo.includes(colleague.email)));
    const messages = smtp.messages.filter((message) => message.envelopeTo.includes(colleague.email));
    expect(messages).toHaveLength(1);
    const mail = await parseMessage(messages[0]!);
    expect(mail.subject).toBe("An enquiry from Priya Portfolio is yours");
    expect(mail.text).toContain(`${TEST_ADMIN.email} assigned you the enquiry from Priya Portfolio`);
    expect(mail.text).toContain("https://lettings.example.com/admin/enquiries?assignee=mine");
    // The visitor's words stay in the dashboard.
    expect(mail.text).not.toContain("Private words");

    // The card shows who has it.
    const page = await signedIn(`/admin/enquiries?assignee=${colleague.id}`);
    expect(page.text).toMatch(new RegExp(`<option value="${colleague.id}" selected="">Sam Colleague</option>`));
  });

  it("sends nothing when a member assigns an enquiry to themselves, or it was theirs already", async () => {
    const id = await enquiry(site.db, "Selma Self");
    const answer = await post({ intent: "assign", id, assignee: await me() });
    expect(answer.status).toBe(200);
    expect((await rowOf(id)).assigned_to).toBe(await me());
    expect(await assignmentJobs(id)).toEqual([]);

    const colleague = await member("owner");
    await post({ intent: "assign", id, assignee: colleague.id });
    expect(await assignmentJobs(id)).toHaveLength(1);
    const again = await post({ intent: "assign", id, assignee: colleague.id });
    expect(visibleText(again.text)).toContain(INBOX_TEXT.assign.unchanged);
    expect(await assignmentJobs(id)).toHaveLength(1);
  });

  it("refuses an Editor as assignee, an id that is no member's or not an id, and changes nothing; Nobody unassigns", async () => {
    const id = await enquiry(site.db, "Rita Refused");
    const colleague = await member("enquiries");
    await post({ intent: "assign", id, assignee: colleague.id });
    const editor = await member("editor");
    for (const assignee of [editor.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const refused = await post({ intent: "assign", id, assignee });
      expect(refused.status).toBe(400);
      expect(visibleText(refused.text)).toContain(INBOX_TEXT.assign.notAssignable);
    }
    expect((await post({ intent: "assign", id: "00000000-0000-4000-8000-000000000000", assignee: colleague.id })).status).toBe(404);
    expect((await rowOf(id)).assigned_to).toBe(colleague.id);

    const cleared = await post({ intent: "assign", id, assignee: "" });
    expect(visibleText(cleared.text)).toContain(INBOX_TEXT.assign.unassigned);
    expect(await rowOf(id)).toMatchObject({ assigned_to: null, assigned_at: null });
  });

  it("Mine, Unassigned and a member's own, with counts that follow, in the JSON API, the page and the CSV", async () => {
    const marker = randomBytes(4).toString("hex");
    const colleague = await member("enquiries");
    const mine = await enquiry(site.db, `Mona Mine ${marker}`);
    const theirs = await enquiry(site.db, `Theo Theirs ${marker}`);
    const nobodys = await enquiry(site.db, `Nadia Nobody ${marker}`);
    await post({ intent: "assign", id: mine, assignee: await me() });
    await post({ intent: "assign", id: theirs, assignee: colleague.id });

    expect((await inbox(`q=${marker}&assignee=mine`)).submissions.map((row) => row.id)).toEqual([mine]);
    expect((await inbox(`q=${marker}&assignee=unassigned`)).submissions.map((row) => row.id)).toEqual([nobodys]);
    const theirView = await inbox(`q=${marker}&assignee=${colleague.id}`);
    expect(theirView.submissions.map((row) => row.id)).toEqual([theirs]);
    expect(theirView.counts.all).toBe(1);
    // Mine is each member's own: the colleague's Mine is their enquiry.
    const colleagueCookie = await signInOverHttp(site.server, { email: colleague.email, password: PASSWORD });
    expect((await inbox(`q=${marker}&assignee=mine`, colleagueCookie)).submissions.map((row) => row.id)).toEqual([theirs]);

    const page = await signedIn(`/admin/enquiries?q=${marker}&assignee=mine`);
    expect(visibleText(page.text)).toContain(`Mona Mine ${marker}`);
    expect(visibleText(page.text)).not.toContain(`Theo Theirs ${marker}`);
    // The tabs keep it.
    expect(page.text).toMatch(/href="\/admin\/enquiries\?filter=unread&amp;q=[^"]*assignee=mine"/);

    const csv = await signedIn(`/admin/enquiries.csv?q=${marker}&assignee=unassigned`);
    expect(csv.text).toContain(`Nadia Nobody ${marker}`);
    expect(csv.text).not.toContain(`Mona Mine ${marker}`);
  });

  it("keeps a follow-up day; Due lists what is due today or overdue, the most overdue first; the dashboard counts it", async () => {
    const marker = randomBytes(4).toString("hex");
    const overdue = await enquiry(site.db, `Olive Overdue ${marker}`);
    const today = await enquiry(site.db, `Toby Today ${marker}`);
    const later = await enquiry(site.db, `Larry Later ${marker}`);
    await enquiry(site.db, `Nell None ${marker}`);
    expect((await post({ intent: "set-follow-up", id: overdue, followUp: dayFromToday(-3) })).status).toBe(200);
    const set = await post({ intent: "set-follow-up", id: today, followUp: dayFromToday(0) });
    expect(visibleText(set.text)).toContain(INBOX_TEXT.followUp.set);
    await post({ intent: "set-follow-up", id: later, followUp: dayFromToday(5) });
    expect((await rowOf(overdue)).follow_up_on).toBe(dayFromToday(-3));
    const entry = await site.db
      .selectFrom("audit_log")
      .select("details")
      .where("target_id", "=", overdue)
      .where("action", "=", "enquiry-follow-up-set")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details!)).toEqual({ day: dayFromToday(-3) });

    const due = await inbox(`q=${marker}&due=1`);
    expect(due.submissions.map((row) => row.id)).toEqual([overdue, today]);
    expect(due.due).toBe(2);
    expect((await inbox(`q=${marker}`)).due).toBe(2);

    const page = visibleText((await signedIn(`/admin/enquiries?q=${marker}`)).text);
    expect(page).toContain(INBOX_TEXT.narrow.due(2));
    expect(page).toContain(INBOX_TEXT.followUp.overdue);
    expect(page).toContain(INBOX_TEXT.followUp.today);
    // The dashboard counts every enquiry due, whichever tab is open.
    const dueEverywhere = (await inbox("due=1")).due;
    expect(visibleText((await signedIn("/admin/projects")).text)).toContain(DASHBOARD_TEXT.due(dueEverywhere));

    // Cleared, it is no longer due.
    const cleared = await post({ intent: "set-follow-up", id: overdue, followUp: dayFromToday(-3), clear: "yes" });
    expect(visibleText(cleared.text)).toContain(INBOX_TEXT.followUp.cleared);
    expect((await inbox(`q=${marker}&due=1`)).submissions.map((row) => row.id)).toEqual([today]);
  });

  it("pages Due in its own order, the most overdue first, every due enquiry once, by the links' cursors", async () => {
    const marker = randomBytes(4).toString("hex");
    const ids: string[] = [];
    for (let index = 0; index < 53; index += 1) ids.push(await enquiry(site.db, `Dee Due ${marker} ${index}`));
    // Days from 60 days ago to 8 days ago, the newest enquiry the most overdue; one later enquiry not due at all.
    for (const [index, id] of ids.entries()) {
      await site.db
        .updateTable("contact_submissions")
        .set({ follow_up_on: dayFromToday(index - 60) })
        .where("id", "=", id)
        .execute();
    }
    await site.db
      .updateTable("contact_submissions")
      .set({ follow_up_on: dayFromToday(3) })
      .where("id", "=", await enquiry(site.db, `Nat Later ${marker}`))
      .execute();
    type Page = { submissions: Array<{ id: string; follow_up_on: string }>; nextCursor?: string; page: number };
    const first = JSON.parse((await signedIn(`/api/admin/enquiries?q=${marker}&due=1`)).text) as Page;
    expect(first.submissions).toHaveLength(50);
    const second = JSON.parse((await signedIn(`/api/admin/enquiries?q=${marker}&due=1&page=2&after=${encodeURIComponent(first.nextCursor!)}`)).text) as Page;
    const days = [...first.submissions, ...second.submissions].map((row) => row.follow_up_on);
    expect(days).toEqual([...days].sort());
    expect([...first.submissions, ...second.submissions].map((row) => row.id).sort()).toEqual([...ids].sort());
  });

  it("refuses a day that is not a real one, and changes nothing", async () => {
    const id = await enquiry(site.db, "Dora Dates");
    await post({ intent: "set-follow-up", id, followUp: "2026-12-01" });
    for (const followUp of ["2026-02-30", "tomorrow", "01/12/2026", "20266-01-01", "1999-12-31"]) {
      const refused = await post({ intent: "set-follow-up", id, followUp });
      expect(refused.status).toBe(400);
      expect(visibleText(refused.text)).toContain(INBOX_TEXT.followUp.invalid);
    }
    expect((await rowOf(id)).follow_up_on).toBe("2026-12-01");
  });

  it("leaves a removed member's enquiries unassigned", async () => {
    const id = await enquiry(site.db, "Lena Leaver");
    const leaver = await member("enquiries");
    await post({ intent: "assign", id, assignee: leaver.id });
    expect((await removeMember(site.db, leaver.id, TEST_ACTOR)).ok).toBe(true);
    expect((await rowOf(id)).assigned_to).toBeNull();
  });

  it("shows the card's timeline in order: received, status, assignment, note, follow-up, each with who", async () => {
    const marker = randomBytes(4).toString("hex");
    const id = await enquiry(site.db, `Tilly Timeline ${marker}`);
    const colleague = await member("enquiries", "Sam Colleague");
    await post({ intent: "set-status", id, status: "contacted" });
    await post({ intent: "assign", id, assignee: colleague.id });
    await post({ intent: "add-note", id, note: "Called; a second flat too." });
    await post({ intent: "set-follow-up", id, followUp: "2026-12-01" });
    await post({ intent: "assign", id, assignee: "" });
    const page = visibleText((await signedIn(`/admin/enquiries?q=${marker}`)).text);
    const start = page.search(/Timeline \(\s*6\s*\)/);
    expect(start).toBeGreaterThan(0);
    const timeline = page.slice(start);
    const lines = [
      "Received through the website",
      `Status changed to Contacted by ${TEST_ADMIN.email}`,
      `Assigned to Sam Colleague by ${TEST_ADMIN.email}`,
      `Note added by ${TEST_ADMIN.email}`,
      `Follow up on Tuesday 1 December 2026, set by ${TEST_ADMIN.email}`,
      `No longer assigned (by ${TEST_ADMIN.email})`,
    ];
    const at = lines.map((line) => timeline.indexOf(line));
    expect(Object.fromEntries(lines.map((line, index) => [line, at[index]! >= 0]))).toEqual(Object.fromEntries(lines.map((line) => [line, true])));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("refuses an Editor (403) before the form is read", async () => {
    const id = await enquiry(site.db, "Eddie Editor");
    const editor = await member("editor");
    const cookie = await signInOverHttp(site.server, { email: editor.email, password: PASSWORD });
    const refused = await postAdminForm(site.server, cookie, "/admin/enquiries", { intent: "set-follow-up", id, followUp: "2026-12-01" });
    expect(refused.status).toBe(403);
    expect((await rowOf(id)).follow_up_on).toBeNull();
  });
});
