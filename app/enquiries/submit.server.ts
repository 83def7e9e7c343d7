import type { AppServices } from "~/platform/context";
import { saveEnquiry, type StoredEnquiry } from "./enquiries.server";
import { FAILURE_MESSAGE, validateEnquiry, type EnquiryField } from "./schema";

export type SubmitResult =
  | { ok: true; enquiry: StoredEnquiry }
  | { ok: false; status: 400 | 503; error: string; fields: EnquiryField[] };

/** Validates and stores an enquiry: the one path shared by the form and the API. */
export async function submitEnquiry(services: AppServices, input: unknown): Promise<SubmitResult> {
  const validation = validateEnquiry(input);
  if (!validation.success) {
    return { ok: false, status: 400, error: validation.error, fields: validation.fields };
  }
  try {
    return { ok: true, enquiry: await saveEnquiry(services.db, validation.data, { mail: services.mail, company: services.company }) };
  } catch (error) {
    // Not acknowledged, so nothing is lost: the visitor keeps the form and can retry.
    console.error("Could not store an enquiry:", error);
    return { ok: false, status: 503, error: FAILURE_MESSAGE, fields: [] };
  }
}
