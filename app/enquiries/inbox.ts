import { isUuid } from "~/platform/ids";
import type { UserType } from "./schema";

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
};

export const INBOX_FILTERS = ["all", "unread", "read"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export type InboxCounts = Record<InboxFilter, number>;

export type InboxPage = {
  submissions: StoredSubmission[];
  counts: InboxCounts;
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

/** Submission ids are UUIDs; anything else cannot name one. */
export const isSubmissionId = isUuid;
