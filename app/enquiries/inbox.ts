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
  /** Per filter, of the submissions that match the search (and the status, when one is chosen); none when the search matched more than `matchesOver`. */
  counts?: InboxCounts;
  /** Per status, of the real enquiries (not spam, not held) that match the search and the read state chosen; none as `counts`. */
  statusCounts?: Record<EnquiryStatus, number>;
  /** Of the real enquiries the view's search, status and assignee select, how many are due (when `dueBy` was asked); none as `counts`. */
  due?: number;
  /** Present when the search matched more submissions than this (of every tab together): then nothing is counted (decision 073). */
  matchesOver?: number;
  /** 1-based: the page's number as the links counted it (keyset pages carry it along). */
  page: number;
  hasMore: boolean;
  /** This page's own place, as its address gives it (empty for the newest page or an old ?page=n): a reload or an action comes back to it. */
  cursor: { after?: string; before?: string };
  /** The first card's place, for Previous (from page 2 on). */
  previousCursor?: string;
  /** The last card's place, for Next (when there is more). */
  nextCursor?: string;
};

/**
 * A card's place in the newest-first order, (created_at, id): a page goes on
 * after the last card of the one before (keyset pagination, decision 058), so
 * no page reads the rows of the pages before it.
 */
export type InboxCursor = { createdAt: string; id: string };

/** Which page: its number, and the place it starts after (Next) or ends before (Previous); neither: the newest page, or the old ?page=n by offset. */
export type PagePosition = { page: number; after?: InboxCursor; before?: InboxCursor };

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(.+)$/;

/** The cursor as the page links carry it: "2026-11-26T09:30:00.000Z_<id>". */
export function formatCursor(cursor: InboxCursor): string {
  return `${cursor.createdAt}_${cursor.id}`;
}

/** A cursor from a link; anything that is not one (a bad date, no submission id) is none. */
export function parseCursor(value: string | null): InboxCursor | undefined {
  const match = CURSOR.exec(value ?? "");
  // A real instant, written as the app writes one ("2026-02-30…" is not one: PostgreSQL would refuse it).
  const at = match ? new Date(match[1]!) : undefined;
  if (!match || !isSubmissionId(match[2]!) || !at || Number.isNaN(at.getTime()) || at.toISOString() !== match[1]) return undefined;
  return { createdAt: match[1]!, id: match[2]! };
}

/** ?page=n&after=… or &before=… as the inbox's links and the JSON API send them. */
export function parsePosition(params: URLSearchParams): PagePosition {
  const page = parsePage(params.get("page"));
  const after = parseCursor(params.get("after"));
  const before = after ? undefined : parseCursor(params.get("before"));
  return { page, ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

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
