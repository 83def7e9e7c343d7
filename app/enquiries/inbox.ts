import { isUuid } from "~/platform/ids";
import type { AssigneeFilter } from "./assignment";
import type { EnquiryStatus } from "./pipeline";
import type { EnquiryKind } from "~/platform/db/schema";
import type { UserType } from "./schema";
import type { ValuationDetails } from "./valuation";

/** A stored contact submission as the admin sees it (SPEC §3 field names). */
export type StoredSubmission = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  user_type: UserType;
  message: string;
  is_read: boolean;
  created_at: string;
  /** Null unless filed under Spam; then what the spam rules noticed ("honeypot", "link-in-name+too-fast": codes of spam.ts). */
  spam_reason: string | null;
  /** Null unless marked as possible spam, or held in a flood ("flood" first); then what the rules noticed. */
  spam_signals: string | null;
  /** Where it stands in the pipeline (pipeline.ts), with the reason of Not proceeding, and who changed it last and when. */
  status: EnquiryStatus;
  status_reason: string | null;
  status_changed_at: string | null;
  status_changed_by: string | null;
  /** The member dealing with it (their id), since when; the UK day to follow it up ("YYYY-MM-DD"). */
  assigned_to: string | null;
  assigned_at: string | null;
  follow_up_on: string | null;
  /** The contact form's, or a valuation request with its property's details (valuation.ts, decision 057). */
  kind: EnquiryKind;
  valuation: ValuationDetails | null;
};

/**
 * All, Unread and Read hold real enquiries only; Held what arrived during a
 * flood (over CONTACT_SITE_LIMIT) until the admin releases it; Spam what the
 * spam rules caught.
 */
export const INBOX_FILTERS = ["all", "unread", "read", "held", "spam"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export type InboxCounts = Record<InboxFilter, number>;

/**
 * What the admin asked to see: a filter, words to find in the name, e-mail or
 * message, a status (every status without one), whose enquiries (everyone's
 * without), and Due: only those to follow up on or before `dueBy` (today in
 * the UK), the most overdue first.
 */
export type InboxQuery = { filter: InboxFilter; search?: string; status?: EnquiryStatus; assignee?: AssigneeFilter; dueBy?: string };

export type InboxPage = {
  submissions: StoredSubmission[];
  /** Per filter, of the submissions that match the search (and the status, when one is chosen). */
  counts: InboxCounts;
  /** Per status, of the real enquiries (not spam, not held) that match the search and the read state chosen. */
  statusCounts: Record<EnquiryStatus, number>;
  /** Of the real enquiries the view's search, status and assignee select, how many are due (when `dueBy` was asked). */
  due?: number;
  /** 1-based. */
  page: number;
  hasMore: boolean;
};

export function parseInboxFilter(value: string | null): InboxFilter {
  return (INBOX_FILTERS as readonly string[]).includes(value ?? "") ? (value as InboxFilter) : "all";
}

export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** Longer searches are cut to this many characters: nobody types more, and a LIKE over a huge pattern is wasted work. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The search box's text (`q=`) as the query uses it: control characters
 * (NUL, which PostgreSQL refuses in text) become spaces, runs of white space
 * one space, ends trimmed, at most MAX_SEARCH_LENGTH characters. Empty: no search.
 */
export function parseSearch(value: string | null): string {
  const cleaned = (value ?? "")
    .replace(/[\p{Cc}\p{Cs}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  // By code point, so a cut never splits a character in two.
  return Array.from(cleaned).slice(0, MAX_SEARCH_LENGTH).join("").trimEnd();
}

/** Submission ids are UUIDs; anything else cannot name one. */
export const isSubmissionId = isUuid;

/** The most submissions one bulk action may name: four pages' worth. */
export const MAX_BULK_IDS = 200;

/** The admin's view of the enquiries held in a flood (the summary e-mail links to it). */
export const HELD_VIEW_PATH = "/admin/enquiries?filter=held";
