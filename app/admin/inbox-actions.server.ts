import { data } from "react-router";
import { isSubmissionId } from "~/enquiries/inbox";
import { deleteSubmission, setSubmissionRead } from "~/enquiries/inbox.server";
import type { Db } from "~/platform/db.server";
import { INBOX_TEXT } from "./texts";
import type { AdminActionData } from "./types";

const notice = (kind: "success" | "error", text: string, status: number) =>
  data<AdminActionData>({ notice: { kind, text } }, { status });

/**
 * The Contact Submissions card actions, after requireAdmin: mark read, mark
 * unread, delete. Bad input and unknown ids answer 4xx with the
 * specification's message and change nothing; a database failure answers 503.
 */
export async function handleInboxAction(db: Db, fields: Record<string, string>) {
  const { intent, id } = fields;
  if (intent === "mark-read" || intent === "mark-unread") {
    if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.readFailure, 400);
    try {
      const found = await setSubmissionRead(db, id, intent === "mark-read");
      if (!found) return notice("error", INBOX_TEXT.readFailure, 404);
    } catch (error) {
      console.error("Could not update a contact submission:", error);
      return notice("error", INBOX_TEXT.readFailure, 503);
    }
    return notice("success", intent === "mark-read" ? INBOX_TEXT.markedRead : INBOX_TEXT.markedUnread, 200);
  }
  if (intent === "delete") {
    if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.deleteFailure, 400);
    // Without JavaScript nothing has asked yet: the page asks, then posts again with confirmed=yes.
    if (fields.confirmed !== "yes") return data<AdminActionData>({ confirmDelete: id });
    try {
      const found = await deleteSubmission(db, id);
      if (!found) return notice("error", INBOX_TEXT.deleteFailure, 404);
    } catch (error) {
      console.error("Could not delete a contact submission:", error);
      return notice("error", INBOX_TEXT.deleteFailure, 503);
    }
    return notice("success", INBOX_TEXT.deleteSuccess, 200);
  }
  return notice("error", "Unknown action.", 400);
}
