import { data } from "react-router";
import type { Actor } from "~/audit/actor";
import { MAX_BULK_IDS, isSubmissionId } from "~/enquiries/inbox";
import { isUuid } from "~/platform/ids";
import { deleteSubmission, deleteSubmissions, markNotSpam, markSpam, setEnquiryStatus, setSubmissionRead, setSubmissionsRead } from "~/enquiries/inbox.server";
import { addNote } from "~/enquiries/notes.server";
import { parseFollowUp } from "~/enquiries/assignment";
import { assignEnquiry, setFollowUp, type AssignmentMail } from "~/enquiries/assignment.server";
import { readEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { STATUS_LABELS, isEnquiryStatus, parseReason } from "~/enquiries/pipeline";
import { retryNotification, type OutboxSignal } from "~/enquiries/outbox.server";
import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import { INBOX_TEXT } from "~/admin/texts";
import type { AdminActionData } from "~/admin/types";

const notice = (kind: "success" | "error", text: string, status: number) => data<AdminActionData>({ notice: { kind, text } }, { status });

const BULK = INBOX_TEXT.bulk;

/** The form's repeated `ids`, checked: at least one, at most MAX_BULK_IDS, every one a submission id. */
function parseBulkIds(ids: string[] | undefined): { ids: string[] } | { refusal: ReturnType<typeof notice> } {
  if (ids === undefined) return { refusal: notice("error", BULK.plainFormOnly, 415) };
  if (ids.length === 0) return { refusal: notice("error", BULK.noneSelected, 400) };
  if (ids.length > MAX_BULK_IDS) return { refusal: notice("error", BULK.tooMany(MAX_BULK_IDS), 400) };
  if (!ids.every(isSubmissionId)) return { refusal: notice("error", BULK.invalid, 400) };
  return { ids: [...new Set(ids)] };
}

/**
 * The Contact Submissions actions, for the signed-in admin (routes/admin-guard.tsx): a card's mark read,
 * mark unread, delete, Not spam, Move to Spam, Retry now, its Status and a note; the bulk bar's mark and
 * delete of the ticked cards (`ids`, repeated; undefined when the body could
 * not carry repeats). Bad input and unknown ids answer 4xx and change
 * nothing; a database failure answers 503.
 */
export async function handleInboxAction(
  { db, outbox, log, assignmentMail }: { db: Db; outbox: OutboxSignal; log: Pick<Log, "error">; assignmentMail?: AssignmentMail },
  fields: Record<string, string>,
  ids: string[] | undefined,
  actor: Actor,
) {
  const { intent, id } = fields;
  switch (intent) {
    case "mark-read":
    case "mark-unread": {
      if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.readFailure, 400);
      try {
        const found = await setSubmissionRead(db, id, intent === "mark-read", actor);
        if (!found) return notice("error", INBOX_TEXT.readFailure, 404);
      } catch (error) {
        log.error({ err: error }, "Could not update a contact submission");
        return notice("error", INBOX_TEXT.readFailure, 503);
      }
      return notice("success", intent === "mark-read" ? INBOX_TEXT.markedRead : INBOX_TEXT.markedUnread, 200);
    }

    case "delete": {
      if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.deleteFailure, 400);
      // Without JavaScript nothing has asked yet: the page asks, then posts again with confirmed=yes.
      if (fields.confirmed !== "yes") return data<AdminActionData>({ confirmDelete: id });
      try {
        const found = await deleteSubmission(db, id, actor);
        if (!found) return notice("error", INBOX_TEXT.deleteFailure, 404);
      } catch (error) {
        log.error({ err: error }, "Could not delete a contact submission");
        return notice("error", INBOX_TEXT.deleteFailure, 503);
      }
      return notice("success", INBOX_TEXT.deleteSuccess, 200);
    }

    case "not-spam": {
      if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.readFailure, 400);
      let done;
      try {
        done = await markNotSpam(db, id, actor);
      } catch (error) {
        log.error({ err: error }, "Could not move a submission out of Spam");
        return notice("error", INBOX_TEXT.readFailure, 503);
      }
      if (!done) return notice("error", INBOX_TEXT.spam.notFound, 404);
      const said = { moved: INBOX_TEXT.spam.moved, released: INBOX_TEXT.spam.released, unmarked: INBOX_TEXT.spam.unmarked } as const;
      return notice("success", said[done], 200);
    }

    case "mark-spam": {
      if (!isSubmissionId(id)) return notice("error", INBOX_TEXT.readFailure, 400);
      try {
        if (!(await markSpam(db, id, actor))) return notice("error", INBOX_TEXT.spam.notInInbox, 404);
      } catch (error) {
        log.error({ err: error }, "Could not move a submission to Spam");
        return notice("error", INBOX_TEXT.readFailure, 503);
      }
      return notice("success", INBOX_TEXT.spam.filed, 200);
    }

    case "retry-notification": {
      const text = INBOX_TEXT.notification;
      if (!isSubmissionId(id)) return notice("error", text.retryFailure, 400);
      try {
        if (!(await retryNotification(db, id, actor, outbox))) return notice("error", text.notFound, 404);
      } catch (error) {
        log.error({ err: error }, "Could not retry a notification e-mail");
        return notice("error", text.retryFailure, 503);
      }
      return notice("success", text.retried, 200);
    }

    case "set-status": {
      const text = INBOX_TEXT.status;
      if (!isSubmissionId(id)) return notice("error", text.failure, 400);
      if (!isEnquiryStatus(fields.status)) return notice("error", text.invalid, 400);
      let reason: string | undefined;
      try {
        // The owner's list of reasons (decision 059), or a reason typed.
        if (fields.status === "not-proceeding") reason = parseReason(fields.reason, fields.otherReason, (await readEnquirySettings(db)).reasons);
      } catch (error) {
        log.error({ err: error }, "Could not read the reasons for Not proceeding");
        return notice("error", text.failure, 503);
      }
      // Without JavaScript the reason's fields show once Not proceeding is chosen: the card asks for them.
      if (fields.status === "not-proceeding" && reason === undefined) {
        return data<AdminActionData>({ notice: { kind: "error", text: text.missingReason }, askReason: id }, { status: 400 });
      }
      try {
        if (!(await setEnquiryStatus(db, id, { status: fields.status, reason }, actor))) return notice("error", text.failure, 404);
      } catch (error) {
        log.error({ err: error }, "Could not change an enquiry's status");
        return notice("error", text.failure, 503);
      }
      return notice("success", text.changed(STATUS_LABELS[fields.status]), 200);
    }

    case "add-note": {
      const text = INBOX_TEXT.notes;
      if (!isSubmissionId(id)) return notice("error", text.failure, 400);
      let added;
      try {
        added = await addNote(db, id, fields.note, actor);
      } catch (error) {
        log.error({ err: error }, "Could not add a note to an enquiry");
        return notice("error", text.failure, 503);
      }
      if (!added.ok) return added.reason === "invalid" ? notice("error", added.message, 400) : notice("error", text.failure, 404);
      return notice("success", text.added, 200);
    }

    case "assign": {
      const text = INBOX_TEXT.assign;
      if (!isSubmissionId(id)) return notice("error", text.failure, 400);
      const assigneeId = fields.assignee === "" || fields.assignee === undefined ? null : fields.assignee;
      if (assigneeId !== null && !isUuid(assigneeId)) return notice("error", text.notAssignable, 400);
      let result;
      try {
        result = await assignEnquiry(db, { id, assigneeId }, actor, assignmentMail);
      } catch (error) {
        log.error({ err: error }, "Could not assign an enquiry");
        return notice("error", text.failure, 503);
      }
      if (result === "no-such-enquiry") return notice("error", text.failure, 404);
      if (result === "not-assignable") return notice("error", text.notAssignable, 400);
      if (result === "assigned") outbox.signal();
      return notice("success", result === "unassigned" ? text.unassigned : result === "unchanged" ? text.unchanged : text.assigned, 200);
    }

    case "set-follow-up": {
      const text = INBOX_TEXT.followUp;
      if (!isSubmissionId(id)) return notice("error", text.failure, 400);
      const day = fields.clear === "yes" ? null : parseFollowUp(fields.followUp);
      if (day === undefined) return notice("error", text.invalid, 400);
      try {
        if (!(await setFollowUp(db, id, day, actor))) return notice("error", text.failure, 404);
      } catch (error) {
        log.error({ err: error }, "Could not set an enquiry's follow-up date");
        return notice("error", text.failure, 503);
      }
      return notice("success", day === null ? text.cleared : text.set, 200);
    }

    case "bulk-mark-read":
    case "bulk-mark-unread": {
      const parsed = parseBulkIds(ids);
      if ("refusal" in parsed) return parsed.refusal;
      let count;
      try {
        count = await setSubmissionsRead(db, parsed.ids, intent === "bulk-mark-read", actor);
      } catch (error) {
        log.error({ err: error }, "Could not update contact submissions");
        return notice("error", INBOX_TEXT.readFailure, 503);
      }
      if (count === 0) return notice("error", BULK.noneFound, 404);
      return notice("success", intent === "bulk-mark-read" ? BULK.markedRead(count) : BULK.markedUnread(count), 200);
    }

    case "bulk-delete": {
      const parsed = parseBulkIds(ids);
      if ("refusal" in parsed) return parsed.refusal;
      // As for one card: without JavaScript the page asks first.
      if (fields.confirmed !== "yes") return data<AdminActionData>({ confirmBulkDelete: parsed.ids });
      let count;
      try {
        count = await deleteSubmissions(db, parsed.ids, actor);
      } catch (error) {
        log.error({ err: error }, "Could not delete contact submissions");
        return notice("error", INBOX_TEXT.deleteFailure, 503);
      }
      if (count === 0) return notice("error", BULK.noneFound, 404);
      return notice("success", BULK.deleted(count), 200);
    }
  }
  return notice("error", "Unknown action.", 400);
}
