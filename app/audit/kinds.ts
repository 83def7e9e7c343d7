import { isCalendarDate } from "~/platform/dates";
import { isUuid } from "~/platform/ids";
import { STORED_ENQUIRY_STATUSES, STORED_ROLES, type StoredEnquiryStatus, type StoredRole as Role } from "~/platform/db/schema";

/**
 * What the audit log can say (docs/decisions/042): a closed list of kinds,
 * each with the kind of record it is about, and a narrow list of details.
 * Nothing in an entry is free text: not an enquiry's message, a password, a
 * token or a code, nor a search someone typed. Shared by server and browser
 * (the Audit log view's filter and labels). It depends on the platform only:
 * every room of the house writes to the log.
 */

/** The kinds of record an entry can be about. */
export type AuditTargetType = "member" | "invitation" | "project" | "file" | "website" | "enquiry" | "enquiries" | "address" | "files" | "backup" | "team";

export const AUDIT_KINDS = {
  "sign-in": { label: "Signed in", target: "member" },
  "sign-in-failed": { label: "Sign-in failed", target: "member" },
  "sign-in-locked": { label: "Sign-in locked after failures", target: "member" },
  "sign-out": { label: "Signed out", target: "member" },
  "member-invited": { label: "Invited a member", target: "invitation" },
  "invitation-revoked": { label: "Revoked an invitation", target: "invitation" },
  "invitation-accepted": { label: "Accepted an invitation", target: "member" },
  "role-changed": { label: "Changed a member's role", target: "member" },
  "member-removed": { label: "Removed a member", target: "member" },
  "member-created": { label: "Created an owner", target: "member" },
  "sessions-ended": { label: "Ended a member's sessions", target: "member" },
  "password-set": { label: "Set a member's password", target: "member" },
  "password-reset": { label: "Set a new password through an e-mailed link", target: "member" },
  // The sign-in factors (decision 043): each is about the member whose sign-in it changes.
  "session-ended": { label: "Signed out one of a member's browsers", target: "member" },
  "two-step-on": { label: "Turned on two-step sign-in", target: "member" },
  "two-step-off": { label: "Turned off two-step sign-in", target: "member" },
  "recovery-codes-renewed": { label: "Made new recovery codes", target: "member" },
  "passkey-added": { label: "Added a passkey", target: "member" },
  "passkey-renamed": { label: "Renamed a passkey", target: "member" },
  "passkey-removed": { label: "Removed a passkey", target: "member" },
  "sign-in-factors-removed": { label: "Removed a member's two-step sign-in and passkeys", target: "member" },
  // An owner's choice for the whole team: no record of its own.
  "second-factor-required": { label: "Required two-step sign-in or a passkey of every member", target: "team" },
  "second-factor-not-required": { label: "Stopped requiring two-step sign-in or a passkey", target: "team" },
  // The record: "audit-log". Who took a copy of the log (its addresses and names) is itself in the log.
  "audit-log-exported": { label: "Exported the audit log as CSV", target: "team" },
  "lockout-lifted": { label: "Lifted a sign-in lockout", target: "member" },
  "project-created": { label: "Added a project", target: "project" },
  "project-updated": { label: "Edited a project", target: "project" },
  "project-shown": { label: "Showed a project", target: "project" },
  "project-hidden": { label: "Hid a project", target: "project" },
  "project-moved": { label: "Moved a project", target: "project" },
  "project-deleted": { label: "Deleted a project", target: "project" },
  "file-uploaded": { label: "Uploaded a file", target: "file" },
  "files-removed": { label: "Removed unused files", target: "files" },
  "files-copied": { label: "Copied the files to other storage", target: "files" },
  // The record: the section saved ("fees").
  "website-saved": { label: "Saved a website section", target: "website" },
  "website-published": { label: "Published the website", target: "website" },
  "website-discarded": { label: "Discarded the website's draft", target: "website" },
  "website-scheduled": { label: "Scheduled a website publish", target: "website" },
  "website-schedule-cancelled": { label: "Cancelled a scheduled publish", target: "website" },
  "website-restored": { label: "Restored a website version", target: "website" },
  "website-imported": { label: "Imported the website's content", target: "website" },
  "enquiry-marked-read": { label: "Marked an enquiry read", target: "enquiry" },
  "enquiry-marked-unread": { label: "Marked an enquiry unread", target: "enquiry" },
  "enquiry-deleted": { label: "Deleted an enquiry", target: "enquiry" },
  "enquiry-marked-spam": { label: "Moved an enquiry to Spam", target: "enquiry" },
  "enquiry-marked-not-spam": { label: "Marked an enquiry not spam", target: "enquiry" },
  "enquiry-released": { label: "Released an enquiry held in a flood", target: "enquiry" },
  "notification-retried": { label: "Retried an enquiry's notification", target: "enquiry" },
  "enquiry-status-changed": { label: "Changed an enquiry's status", target: "enquiry" },
  "enquiry-note-added": { label: "Added a note to an enquiry", target: "enquiry" },
  // The member assigned (details.assignee), or nobody (no detail).
  "enquiry-assigned": { label: "Assigned an enquiry", target: "enquiry" },
  "enquiry-follow-up-set": { label: "Set an enquiry's follow-up date", target: "enquiry" },
  "enquiry-replied": { label: "Replied to an enquiry", target: "enquiry" },
  "enquiry-settings-saved": { label: "Saved the reply templates, reasons and acknowledgement", target: "enquiries" },
  // The record: the inbox view exported ("all", "spam").
  "enquiries-exported": { label: "Exported enquiries as CSV", target: "enquiries" },
  // The record: "months", the month-by-month figures of how the team is doing.
  "enquiry-figures-exported": { label: "Exported the enquiry figures as CSV", target: "enquiries" },
  "enquiries-expired": { label: "Deleted enquiries past retention", target: "enquiries" },
  "data-exported": { label: "Exported the data held for an address", target: "address" },
  "data-erased": { label: "Erased the data held for an address", target: "address" },
  "backup-made": { label: "Made a backup", target: "backup" },
  "backup-restored": { label: "Restored a backup", target: "backup" },
} as const satisfies Record<string, { label: string; target: AuditTargetType }>;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_NAMES = Object.keys(AUDIT_KINDS) as AuditKind[];

export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === "string" && Object.hasOwn(AUDIT_KINDS, value);
}

/** Why a sign-in failed, as far as the log may say. */
export const SIGN_IN_FAILURES = ["wrong-password", "no-such-member", "wrong-code", "wrong-passkey"] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

/**
 * The details an entry may carry, and nothing else: counts, roles, version
 * numbers, a yes or no, a time, a reason from a list. Checked again when
 * written (checkDetails), so a cast cannot slip text in.
 */
export type AuditDetails = {
  /** How many records a change touched: enquiries exported or erased, files removed, sessions ended. */
  count?: number;
  /** The role given (an invitation, a new role, an accepted invitation). */
  role?: Role;
  /** The role before a change of role. */
  previousRole?: Role;
  /** The website version published or restored as. */
  version?: number;
  /** The version a restore brought back. */
  fromVersion?: number;
  /** The export was of a search (its words are not kept: they may be a name). */
  searched?: boolean;
  /** ISO time: when a scheduled publish is due. */
  at?: string;
  /** A failed sign-in: a member's wrong password, two-step code or passkey, or an address (or passkey) that is no member's. */
  failure?: SignInFailure;
  /** An enquiry's new status in the pipeline (its reason, which may be typed, is not kept here). */
  status?: StoredEnquiryStatus;
  /** The member an enquiry was assigned to (their id). */
  assignee?: string;
  /** A calendar day ("2026-12-01"): an enquiry's follow-up date. */
  day?: string;
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

const DETAIL_CHECKS: { [K in keyof Required<AuditDetails>]: (value: unknown) => boolean } = {
  count,
  role: (value) => (STORED_ROLES as readonly unknown[]).includes(value),
  previousRole: (value) => (STORED_ROLES as readonly unknown[]).includes(value),
  version: count,
  fromVersion: count,
  searched: (value) => typeof value === "boolean",
  at: (value) => typeof value === "string" && ISO_TIME.test(value),
  failure: (value) => (SIGN_IN_FAILURES as readonly unknown[]).includes(value),
  status: (value) => (STORED_ENQUIRY_STATUSES as readonly unknown[]).includes(value),
  assignee: isUuid,
  day: (value) => typeof value === "string" && isCalendarDate(value),
};

/** The details as stored, or a thrown error naming the first field that is not allowed (a bug, never a user's doing). */
export function checkDetails(details: AuditDetails | undefined): AuditDetails | undefined {
  if (details === undefined) return undefined;
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(details)) {
    if (value === undefined) continue;
    const check = Object.hasOwn(DETAIL_CHECKS, name) ? DETAIL_CHECKS[name as keyof AuditDetails] : undefined;
    if (!check?.(value)) throw new Error(`The audit log does not take the detail "${name}" with that value.`);
    checked[name] = value;
  }
  return Object.keys(checked).length > 0 ? (checked as AuditDetails) : undefined;
}
