/**
 * Internal notes on an enquiry (issue 22, decision 056), over HTTP on the
 * built server, on both databases: added on the card's form with who and
 * when, shown to the team (escaped), audited without their words, in a data
 * request's export, and gone with the enquiry (a delete, an erasure); bad
 * input changes nothing.
 */
import { describe, expect, it } from "vitest";
import { INBOX_TEXT } from "~/admin/texts";
import { eraseDataHeld, exportDataHeld } from "~/enquiries/data-requests.server";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { MAX_NOTE_LENGTH, NOTE_PROBLEMS } from "~/enquiries/notes";
import type { Db } from "~/platform/db/db.server";
import { TEST_ACTOR } from "../support/actors";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { NO_MAIL } from "../support/enquiries";
import { htmlText, visibleText } from "../support/html";
import { useSite } from "../support/sites";

async function enquiry(db: Db, name: string, email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`): Promise<string> {
  const { id } = await saveEnquiry(db, { name, email, phone: undefined, userType: "landlord", message: `A house to let, from ${name}.` }, NO_MAIL);
  return id;
}

describe.each(backends)("notes on an enquiry on $name", (backend) => {
  const site = useSite(backend);
  const addNote = (id: string, note: string) => site.postForm("/admin/enquiries", { intent: "add-note", id, note });
  const notesOf = (id: string) =>
    site.db.selectFrom("enquiry_notes").select(["author_label", "body"]).where("submission_id", "=", id).orderBy("created_at").execute();

  it("adds a note with who and when, shows it on the card escaped, and audits it without its words", async () => {
    const id = await enquiry(site.db, "Nora Noted");
    const answer = await addNote(id, "  Called back: <b>wants</b> a valuation\r\non Friday.  ");
    expect(answer.status).toBe(200);
    expect(visibleText(answer.text)).toContain(INBOX_TEXT.notes.added);
    expect(await notesOf(id)).toEqual([{ author_label: TEST_ADMIN.email, body: "Called back: <b>wants</b> a valuation\non Friday." }]);

    const page = await site.get("/admin/enquiries", { cookie: site.cookie });
    expect(page.text).toContain(htmlText("Called back: <b>wants</b> a valuation"));
    expect(page.text).not.toContain("<b>wants</b>");
    expect(visibleText(page.text)).toContain(`${TEST_ADMIN.email},`);

    const entries = await site.db.selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", id).execute();
    expect(entries).toEqual([{ action: "enquiry-note-added", details: null }]);
  });

  it("refuses an empty note, one too long, an id that is none (400) or gone (404), and keeps nothing", async () => {
    const id = await enquiry(site.db, "Ed Empty");
    const empty = await addNote(id, " \n\t ");
    expect(empty.status).toBe(400);
    expect(visibleText(empty.text)).toContain(NOTE_PROBLEMS.empty);
    expect((await addNote(id, "x".repeat(MAX_NOTE_LENGTH + 1))).status).toBe(400);
    expect((await addNote("not-an-id", "hello")).status).toBe(400);
    expect((await addNote("00000000-0000-4000-8000-000000000000", "hello")).status).toBe(404);
    expect(await notesOf(id)).toEqual([]);
  });

  it("goes with the enquiry: in the data request's export, and erased or deleted with it", async () => {
    const erased = await enquiry(site.db, "Gina Gdpr", "gina.gdpr@example.com");
    await addNote(erased, "Prefers e-mail.");
    const exported = await exportDataHeld(site.db, "gina.gdpr@example.com", new Date(), TEST_ACTOR);
    expect(exported.submissions[0]!.notes.map((note) => note.body)).toEqual(["Prefers e-mail."]);
    await eraseDataHeld(site.db, "gina.gdpr@example.com", TEST_ACTOR);
    expect(await notesOf(erased)).toEqual([]);

    const deleted = await enquiry(site.db, "Dan Deleted");
    await addNote(deleted, "Duplicate of another enquiry.");
    expect((await site.postForm("/admin/enquiries", { intent: "delete", id: deleted, confirmed: "yes" })).status).toBe(200);
    expect(await notesOf(deleted)).toEqual([]);
  });
});
