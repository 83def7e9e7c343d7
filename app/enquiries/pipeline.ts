import { STORED_ENQUIRY_STATUSES, type StoredEnquiryStatus } from "~/platform/db/schema";

/**
 * Where an enquiry stands in the company's pipeline (issue 22, decision 055):
 * a Status beside the specification's read state, changed by a member on the
 * card and recorded with who and when. Shared by server and browser.
 */
export const ENQUIRY_STATUSES = STORED_ENQUIRY_STATUSES;
export type EnquiryStatus = StoredEnquiryStatus;

/** The interface's words for each status, exactly as the issue names them. */
export const STATUS_LABELS: Record<EnquiryStatus, string> = {
  new: "New",
  contacted: "Contacted",
  "valuation-booked": "Valuation booked",
  instructed: "Instructed",
  "not-proceeding": "Not proceeding",
};

/** Why an enquiry is not proceeding: a short list to choose from, or a reason typed. The defaults: an owner keeps the list (decision 059). */
export const NOT_PROCEEDING_REASONS = [
  "Chose another agent",
  "Fees too high",
  "Not letting the property after all",
  "No reply after several tries",
  "Not an enquiry we can take on",
] as const;

/** A typed reason, at most this many characters. */
export const MAX_REASON_LENGTH = 200;

export function isEnquiryStatus(value: unknown): value is EnquiryStatus {
  return typeof value === "string" && (ENQUIRY_STATUSES as readonly string[]).includes(value);
}

/** `?status=` of the inbox: one status, or undefined for every status. */
export function parseStatusFilter(value: string | null): EnquiryStatus | undefined {
  return isEnquiryStatus(value) ? value : undefined;
}

/**
 * The reason a member gave for Not proceeding: one chosen from the list, or
 * typed (`reason=other` with `otherReason`), trimmed, one line. Undefined
 * when none was given or it cannot be one.
 */
export function parseReason(chosen: string | undefined, typed: string | undefined, reasons: readonly string[] = NOT_PROCEEDING_REASONS): string | undefined {
  if (chosen !== undefined && reasons.includes(chosen)) return chosen;
  if (chosen !== "other") return undefined;
  const text = (typed ?? "")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "" || [...text].length > MAX_REASON_LENGTH) return undefined;
  return text;
}
