import { calendarDateLabel } from "~/platform/dates";
import type { NotificationState } from "./delivery";
import { STATUS_LABELS, type EnquiryStatus } from "./pipeline";
import type { EnquiryReply } from "./replies";

/**
 * An enquiry's timeline (issue 22, decision 062): what happened to it, in
 * order: received, the e-mail to the company sent or failing, status
 * changes, assignment, follow-up days, notes, spam decisions and replies.
 * Made from what is stored already (the enquiry, its outbox jobs, its notes
 * and the audit log's entries about it), so nothing is written twice. Shared
 * by server and browser: words only.
 */
export type TimelineEntry = { at: string; kind: TimelineKind; text: string };
export type TimelineKind = "received" | "email" | "status" | "assignment" | "follow-up" | "note" | "spam" | "reply";

/** What the audit log said about the enquiry, with names already found for members. */
export type TimelineFact =
  | { at: string; by: string; action: "status"; status: EnquiryStatus }
  | { at: string; by: string; action: "assigned"; to: string | undefined }
  | { at: string; by: string; action: "follow-up"; day: string | undefined }
  | { at: string; by: string; action: "marked-spam" | "not-spam" | "released" };

export const TIMELINE_TEXT = {
  title: "Timeline",
  received: "Received through the website",
  emailSent: "E-mail to the company sent",
  emailWaiting: "E-mail to the company waiting to be sent",
  emailFailing: (tries: number) => `E-mail to the company failing (${tries} ${tries === 1 ? "try" : "tries"} so far)`,
  emailFailed: (tries: number) => `E-mail to the company failed after ${tries} ${tries === 1 ? "try" : "tries"}`,
  status: (status: string, by: string) => `Status changed to ${status} by ${by}`,
  assigned: (to: string, by: string) => `Assigned to ${to} by ${by}`,
  unassigned: (by: string) => `No longer assigned (by ${by})`,
  followUp: (day: string, by: string) => `Follow up on ${day}, set by ${by}`,
  followUpCleared: (by: string) => `Follow-up date cleared by ${by}`,
  note: (by: string) => `Note added by ${by}`,
  markedSpam: (by: string) => `Moved to Spam by ${by}`,
  notSpam: (by: string) => `Marked not spam by ${by}`,
  released: (by: string) => `Released from the flood hold by ${by}`,
  reply: (subject: string, by: string, delivery: string) => `Reply “${subject}” by ${by}: ${delivery}`,
  replyDelivery: { queued: "waiting to be sent", sent: "sent", failing: "failing", "not-sent": "not sent" },
} as const;

/** A reply sent from the dashboard (decision 059), when it was written, with how its e-mail stands. */
export function replyEntry(reply: Pick<EnquiryReply, "subject" | "author" | "createdAt" | "delivery">): TimelineEntry {
  return { at: reply.createdAt, kind: "reply", text: TIMELINE_TEXT.reply(reply.subject, reply.author, TIMELINE_TEXT.replyDelivery[reply.delivery]) };
}

/** The e-mail to the company, when there is one: at the time it was sent, or (waiting, failing) when it was last tried. */
function emailEntry(state: NotificationState | undefined, receivedAt: string): TimelineEntry | undefined {
  if (!state) return undefined;
  if (state.status === "sent") return { at: state.sentAt ?? receivedAt, kind: "email", text: TIMELINE_TEXT.emailSent };
  const at = state.lastTriedAt ?? receivedAt;
  if (state.status === "failed") return { at, kind: "email", text: TIMELINE_TEXT.emailFailed(state.attempts) };
  if (state.attempts > 0 && state.lastError !== null) return { at, kind: "email", text: TIMELINE_TEXT.emailFailing(state.attempts) };
  return { at, kind: "email", text: TIMELINE_TEXT.emailWaiting };
}

function factEntry(fact: TimelineFact): TimelineEntry {
  switch (fact.action) {
    case "status":
      return { at: fact.at, kind: "status", text: TIMELINE_TEXT.status(STATUS_LABELS[fact.status], fact.by) };
    case "assigned":
      return { at: fact.at, kind: "assignment", text: fact.to === undefined ? TIMELINE_TEXT.unassigned(fact.by) : TIMELINE_TEXT.assigned(fact.to, fact.by) };
    case "follow-up":
      return {
        at: fact.at,
        kind: "follow-up",
        text: fact.day === undefined ? TIMELINE_TEXT.followUpCleared(fact.by) : TIMELINE_TEXT.followUp(calendarDateLabel(fact.day), fact.by),
      };
    case "marked-spam":
      return { at: fact.at, kind: "spam", text: TIMELINE_TEXT.markedSpam(fact.by) };
    case "not-spam":
      return { at: fact.at, kind: "spam", text: TIMELINE_TEXT.notSpam(fact.by) };
    case "released":
      return { at: fact.at, kind: "spam", text: TIMELINE_TEXT.released(fact.by) };
  }
}

/** Every entry of one enquiry's timeline, oldest first (received always first). */
export function buildTimeline({
  receivedAt,
  notification,
  notes,
  facts,
  extra = [],
}: {
  receivedAt: string;
  notification: NotificationState | undefined;
  notes: ReadonlyArray<{ author: string; createdAt: string }>;
  facts: readonly TimelineFact[];
  /** Entries made elsewhere (replies). */
  extra?: readonly TimelineEntry[];
}): TimelineEntry[] {
  const email = emailEntry(notification, receivedAt);
  const rest = [
    ...(email ? [email] : []),
    ...facts.map(factEntry),
    ...notes.map((note): TimelineEntry => ({ at: note.createdAt, kind: "note", text: TIMELINE_TEXT.note(note.author) })),
    ...extra,
  ];
  // ISO times in UTC sort as text; a stable sort keeps same-moment entries in the order above.
  rest.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return [{ at: receivedAt, kind: "received", text: TIMELINE_TEXT.received }, ...rest];
}
