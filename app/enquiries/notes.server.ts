import { randomUUID } from "node:crypto";
import { audit } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { inTransaction } from "~/platform/db/transactions.server";
import { parseNote, type EnquiryNote } from "./notes";

/**
 * Internal notes on an enquiry (issue 22, decision 056): written by a
 * member, shown on the card to the team, never sent to the visitor, and
 * deleted with the enquiry (the table's ON DELETE CASCADE). The audit entry
 * says a note was added to which enquiry, never what it says.
 */
export type AddNoteResult = { ok: true; note: EnquiryNote } | { ok: false; reason: "invalid"; message: string } | { ok: false; reason: "not-found" };

export async function addNote(db: Db, submissionId: string, text: string | undefined, actor: Actor, now = new Date()): Promise<AddNoteResult> {
  const parsed = parseNote(text);
  if ("problem" in parsed) return { ok: false, reason: "invalid", message: parsed.problem };
  return inTransaction(db, async (trx): Promise<AddNoteResult> => {
    const found = await trx.selectFrom("contact_submissions").select("id").where("id", "=", submissionId).executeTakeFirst();
    if (!found) return { ok: false, reason: "not-found" };
    const note = { id: randomUUID(), author: actorLabel(actor), body: parsed.body, createdAt: now.toISOString() };
    await trx
      .insertInto("enquiry_notes")
      .values({
        id: note.id,
        submission_id: submissionId,
        author_id: actor.kind === "member" ? actor.id : null,
        author_label: note.author,
        body: note.body,
        created_at: note.createdAt,
      })
      .execute();
    await audit(trx, { actor, action: "enquiry-note-added", target: submissionId, at: now });
    return { ok: true, note };
  });
}

/** The notes of these enquiries, oldest first, by enquiry. */
export async function notesOf(db: Db, submissionIds: string[]): Promise<Map<string, EnquiryNote[]>> {
  const notes = new Map<string, EnquiryNote[]>();
  if (submissionIds.length === 0) return notes;
  const rows = await db
    .selectFrom("enquiry_notes")
    .select(["id", "submission_id", "author_label", "body", "created_at"])
    .where("submission_id", "in", submissionIds)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = notes.get(row.submission_id) ?? [];
    list.push({ id: row.id, author: row.author_label, body: row.body, createdAt: toIsoString(row.created_at) });
    notes.set(row.submission_id, list);
  }
  return notes;
}
