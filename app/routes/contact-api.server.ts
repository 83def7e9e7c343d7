import { SUCCESS_MESSAGE } from "~/enquiries/schema";
import { submitEnquiry, type EnquiryServices } from "~/enquiries/submit.server";
import { VALUATION_TEXT } from "~/enquiries/valuation";
import { BodyError, CONTACT_BODY_LIMIT, bodyErrorHeaders, readJsonObject, type BodySource } from "~/platform/http/request-body.server";

/** A JSON answer: its status, its body and the headers it needs beside Content-Type. */
export type JsonAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * POST /api/contact: JSON {name, email, phone?, userType, message} → 201 {ok, id, message} or 4xx {error}.
 * With `kind: "valuation"`, a valuation request's fields instead (app/enquiries/valuation.ts), answered the same way.
 * Also honoured: `website` (the honeypot) and `formToken` (the time trap, checked when sent).
 *
 * The one implementation of the API, answered ahead of Express from a client
 * itself and by Express behind a proxy, both before React Router and the pages'
 * middleware (server/express-app.ts, decisions 065 and 083: the router's
 * pipeline cost a quarter of an enquiry's CPU) and by the route module (app/routes/api.contact.ts) for the
 * requests Express leaves to React Router. The body is read here, within its
 * limit, before anything else; a body that is not a JSON object is refused
 * with the reader's message (decision 036).
 */
export async function answerContactApi(services: EnquiryServices, clientIp: string, request: BodySource): Promise<JsonAnswer> {
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(request, CONTACT_BODY_LIMIT);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return { status: error.status, body: { error: error.message }, headers: bodyErrorHeaders(error) as Record<string, string> };
  }
  const kind = body.kind ?? "contact";
  if (kind !== "contact" && kind !== "valuation") {
    return { status: 400, body: { error: 'kind must be "contact" or "valuation"', fields: ["kind"] } };
  }
  const result = await submitEnquiry(services, { input: body, clientIp, tokenRequired: false, kind });
  if (!result.ok && result.status === 429) {
    return { status: 429, body: { error: result.error }, headers: { "Retry-After": String(result.retryAfterSeconds) } };
  }
  if (!result.ok) {
    // 503: the database could not take it now; the client may try again after Retry-After.
    const headers = result.status === 503 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
    return { status: result.status, body: { error: result.error, fields: result.fields }, headers };
  }
  const message = kind === "valuation" ? VALUATION_TEXT.success : SUCCESS_MESSAGE;
  return { status: 201, body: { ok: true, id: result.enquiry.id, message } };
}

/** The answer to any other method. */
export const CONTACT_API_METHOD_NOT_ALLOWED: JsonAnswer = { status: 405, body: { error: "Use POST with a JSON body" }, headers: { Allow: "POST" } };
