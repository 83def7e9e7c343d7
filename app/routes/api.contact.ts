import { SUCCESS_MESSAGE } from "~/enquiries/schema";
import { submitEnquiry } from "~/enquiries/submit.server";
import { VALUATION_TEXT } from "~/enquiries/valuation";
import { requestContext } from "~/platform/http/context";
import { servicesContext } from "~/services";
import { CONTACT_BODY_LIMIT, jsonRefusal, readJsonObject, withBody } from "~/platform/http/request-body.server";
import type { Route } from "./+types/api.contact";

const methodNotAllowed = () => Response.json({ error: "Use POST with a JSON body" }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return methodNotAllowed();
}

/**
 * POST /api/contact: JSON {name, email, phone?, userType, message} → 201 {ok, id, message} or 4xx {error}.
 * With `kind: "valuation"`, a valuation request's fields instead (app/enquiries/valuation.ts), answered the same way.
 * Also honoured: `website` (the honeypot) and `formToken` (the time trap, checked when sent).
 */
export async function action(args: Route.ActionArgs) {
  return args.request.method === "POST" ? submit(args) : methodNotAllowed();
}

const submit = withBody((request) => readJsonObject(request, CONTACT_BODY_LIMIT), jsonRefusal, submitJson);

async function submitJson({ context }: Route.ActionArgs, body: Record<string, unknown>): Promise<Response> {
  const kind = body.kind ?? "contact";
  if (kind !== "contact" && kind !== "valuation") {
    return Response.json({ error: 'kind must be "contact" or "valuation"', fields: ["kind"] }, { status: 400 });
  }
  const result = await submitEnquiry(context.get(servicesContext), {
    input: body,
    clientIp: context.get(requestContext).clientIp,
    tokenRequired: false,
    kind,
  });
  if (!result.ok && result.status === 429) {
    return Response.json({ error: result.error }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
  }
  if (!result.ok) {
    // 503: the database could not take it now; the client may try again after Retry-After.
    const headers = result.status === 503 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
    return Response.json({ error: result.error, fields: result.fields }, { status: result.status, headers });
  }
  const message = kind === "valuation" ? VALUATION_TEXT.success : SUCCESS_MESSAGE;
  return Response.json({ ok: true, id: result.enquiry.id, message }, { status: 201 });
}
