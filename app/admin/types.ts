import type { EnquiryStatus } from "~/enquiries/pipeline";
import type { InboxCounts, InboxFilter, StoredSubmission } from "~/enquiries/inbox";
import type { NotificationLine } from "./notification-status";
import type { ProjectFormErrors, ProjectFormValues } from "~/projects/project-form";
import type { RenovationProject } from "~/projects/types";
import type { ViewNarrowing } from "~/enquiries/view";
import type { TimelineEntry } from "~/enquiries/timeline";
import type { ReplyDelivery } from "~/enquiries/replies";

/** What the limits held or turned away in the last 24 hours; each part only when it happened (last: when, in UK time). */
export type LimitsNotice = {
  /** Enquiries held in a flood, over CONTACT_SITE_LIMIT. */
  held?: { count: number; limit: number; last: string };
  /** Enquiries refused: over CONTACT_HARD_LIMIT (ceiling) and over CONTACT_RATE_LIMIT (address). */
  refused?: { ceiling: number; hardLimit: number; address: number; rateLimit: number; last: string };
  /** Sign-ins refused: every hash slot busy, or over the sign-in limits. */
  signIns?: { busy: number; limited: number; last: string };
  /** Invitation pages refused: too many links that name no invitation from one address (shown to owners). */
  joins?: { limited: number; limit: number; last: string };
  /** "Forgot your password?" requests refused: over the limits per address or per client address. */
  resets?: { count: number; perAddress: number; perClient: number; last: string };
};

/** A submission with its words already made on the server (dates in UK time). */
/** The database could not be reached, or its disk was full, lately (platform/db/database-health.server.ts); times in UK time. */
export type DatabaseNotice = { kind: "unreachable" | "disk-full"; since: string; until: string | undefined; failures: number; detail: string };

export type InboxSubmission = StoredSubmission & {
  submitted_label: string;
  /** Spam only: why it was caught, in words. */
  spam_label?: string;
  /** Possible spam only (kept in the inbox): what the rules noticed, in words. */
  possible_spam_label?: string;
  /** Real enquiries with an e-mail job only. */
  notification?: NotificationLine;
  /** When a member last changed its status, in UK time; absent while nobody has. */
  status_changed_label?: string;
  /** Who deals with it, by name; absent while nobody does. */
  assignee_name?: string;
  /** The follow-up day in words ("Tuesday 1 December 2026"), and whether it is today or past. */
  follow_up?: { label: string; due: "overdue" | "today" | "later" };
  /** The team's notes, oldest first, with their times in UK time. */
  notes: Array<{ id: string; author: string; body: string; when: string }>;
  /** What happened to it, oldest first (decision 062), with times in UK time. */
  timeline: Array<TimelineEntry & { when: string }>;
  /** Replies sent from the dashboard, oldest first, with their delivery state (decision 059). */
  replies: ReplyViewReply[];
};

/** A reply as the card and the reply page show it, its time in UK time. */
export type ReplyViewReply = { id: string; author: string; subject: string; body: string; when: string; delivery: ReplyDelivery };

/** What the cards need to reply (decision 059): is e-mail on, the owner's Not proceeding reasons, may this member edit them. */
export type ReplyingView = { mailOn: boolean; reasons: string[]; mayEditSettings: boolean };

export type InboxView =
  | {
      status: "ok";
      filter: InboxFilter;
      /** What the search box holds (parsed); empty: no search. */
      search: string;
      /** The status, assignee and Due chosen (?status=&assignee=&due=1); nothing: every enquiry of the tab. */
      narrowing: ViewNarrowing;
      /** How many of the view (without Due) are to be followed up today or earlier; none when the search matched more than `matchesOver`. */
      due?: number;
      /** Who an enquiry can be assigned to: members with the Enquiries or Owner role. */
      members: Array<{ id: string; name: string }>;
      /** None when the search matched more than `matchesOver` (of every tab together): nothing is counted then (decision 073). */
      counts?: InboxCounts;
      statusCounts?: Record<EnquiryStatus, number>;
      matchesOver?: number;
      page: number;
      hasMore: boolean;
      /** Where this page, Previous and Next are in the newest-first order (InboxPage's cursors: keyset pages). */
      cursor: { after?: string; before?: string };
      previousCursor?: string;
      nextCursor?: string;
      submissions: InboxSubmission[];
      /** Without JavaScript, "Select all on this page" is a link (?select=all) that comes back with every box ticked. */
      selectAll: boolean;
    }
  | { status: "error"; filter: InboxFilter; search: string; narrowing: ViewNarrowing };

/** The project form the URL asks for (?form=new or ?edit=<id>). */
export type ProjectFormState = { mode: "add"; displayOrder: number } | { mode: "edit"; project: RenovationProject };

export type ProjectsView = { status: "ok"; projects: RenovationProject[]; form?: ProjectFormState; notice?: Notice } | { status: "error" };

export type Notice = { kind: "success" | "error"; text: string };

/** What an admin action answers: a notice for the page, or (without JavaScript) a delete to confirm. */
export type AdminActionData = {
  notice?: Notice;
  /** Without JavaScript a delete first asks on the page: the id to confirm. */
  confirmDelete?: string;
  /** The same for a bulk delete: the ids to confirm. */
  confirmBulkDelete?: string[];
  /** Not proceeding was chosen without its reason: the card whose reason's fields to show. */
  askReason?: string;
  /** A project form the server refused: shown again as the admin left it, with the problems. */
  projectForm?: { values: ProjectFormValues; errors: ProjectFormErrors };
};
