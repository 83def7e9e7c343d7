import type { InboxCounts, InboxFilter, StoredSubmission } from "~/enquiries/inbox";
import type { RenovationProject } from "~/projects/types";

export const ADMIN_TABS = ["projects", "contacts"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export function parseAdminTab(value: string | null): AdminTab {
  return value === "contacts" ? "contacts" : "projects";
}

/** A submission with its date already formatted on the server. */
export type InboxSubmission = StoredSubmission & { submitted_label: string };

export type InboxView =
  | { status: "ok"; filter: InboxFilter; counts: InboxCounts; page: number; hasMore: boolean; submissions: InboxSubmission[] }
  | { status: "error"; filter: InboxFilter };

export type ProjectsView = { status: "ok"; projects: RenovationProject[] } | { status: "error" };

/** What an inbox action answers: a notice for the page, or (without JavaScript) a delete to confirm. */
export type InboxActionData = {
  notice?: { kind: "success" | "error"; text: string };
  /** Without JavaScript a delete first asks on the page: the id to confirm. */
  confirmDelete?: string;
};
