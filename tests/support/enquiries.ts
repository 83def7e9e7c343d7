import type { SpamSignal } from "~/enquiries/spam";
import type { SpamVerdict } from "~/enquiries/spam.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { randomUUID } from "node:crypto";
import type { Database, Db } from "~/platform/db/db.server";
import type { OutboxStatus } from "~/platform/db/schema";
import type { ValuationDetails } from "~/enquiries/valuation-details";

/** A valid enquiry, as the contact form sends it. */
export const validEnquiry = {
  name: "Grace Hopper",
  email: "grace@example.com",
  phone: "020 7946 0002",
  userType: "landlord",
  message: "Three houses in Leeds need a managing agent.",
};

/** A valid valuation request, as /valuation's form sends it (app/enquiries/valuation.ts). */
export const validValuation = {
  address: "14 Albion Street, Leeds",
  postcode: "LS1 6AF",
  propertyType: "terraced",
  bedrooms: "3",
  occupancy: "let",
  letBy: "asap",
  name: "Priya Landlord",
  email: "priya@example.com",
  phone: "0113 496 0000",
  callTime: "any",
  message: "",
};

/** The property details of validValuation, as the valuation's validator hands them on (saveEnquiry's `valuation`). */
export function valuationDetails(): ValuationDetails {
  const { address, postcode, propertyType, bedrooms, occupancy, letBy, callTime } = validValuation;
  return { address, postcode, propertyType, bedrooms, occupancy, letBy, callTime } as ValuationDetails;
}

/** POST /api/contact with a JSON body (a string is sent as it is). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POST / with the contact form's fields, urlencoded, as the form without JavaScript sends it. */
export function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${url}/?index`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Rows of contact_submissions by id or by message. */
export async function findEnquiry(database: Database, where: { id?: string; message?: string }) {
  let query = database.db.selectFrom("contact_submissions").selectAll();
  if (where.id) query = query.where("id", "=", where.id);
  if (where.message) query = query.where("message", "=", where.message);
  return query.execute();
}

export async function countEnquiries(database: Database): Promise<number> {
  const { count } = await database.db
    .selectFrom("contact_submissions")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** saveEnquiry's options for an enquiry stored with e-mail off, as on a site without SMTP_URL. */
export const NO_MAIL = { mail: undefined, company: PLACEHOLDER_COMPANY } as const;

/** saveEnquiry's verdict for an enquiry filed under Spam for this reason; none (clean) without one. */
export function filedAsSpam(reason: SpamSignal | undefined): SpamVerdict | undefined {
  return reason === undefined ? undefined : { kind: "spam", signals: [reason] };
}

export type NotificationJob = {
  kind?: "notification" | "reply";
  status: OutboxStatus;
  attempts?: number;
  lastError?: string | null;
  nextAttemptAt?: string | null;
  sentAt?: string | null;
};

/** Writes the notification e-mail job of an enquiry (or, with `kind`, a reply to the visitor) as the outbox would hold it, directly into this database; returns its id. */
export async function addNotification(db: Db, submissionId: string, job: NotificationJob): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("email_outbox")
    .values({
      id,
      submission_id: submissionId,
      kind: job.kind ?? "notification",
      message: JSON.stringify({ to: "office@example.com", subject: "New enquiry", text: "…", html: "<p>…</p>" }),
      status: job.status,
      attempts: job.attempts ?? 0,
      next_attempt_at: job.nextAttemptAt ?? null,
      last_error: job.lastError ?? null,
      sent_at: job.sentAt ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/**
 * Turns the visitor's acknowledgement e-mail on (an owner's setting, decision
 * 059) with its default text; returns what turns it off again.
 */
export async function acknowledgementOn(db: Db): Promise<() => Promise<void>> {
  const { saveEnquirySettings } = await import("~/enquiries/enquiry-settings.server");
  const { DEFAULT_SETTINGS } = await import("~/enquiries/replies");
  const { TEST_ACTOR } = await import("./actors");
  await saveEnquirySettings(db, { ...DEFAULT_SETTINGS, acknowledgement: { ...DEFAULT_SETTINGS.acknowledgement, on: true } }, TEST_ACTOR);
  return async () => {
    await db.deleteFrom("enquiry_settings").execute();
  };
}
