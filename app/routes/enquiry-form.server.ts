import { data, type RouterContextProvider } from "react-router";
import { FAILURE_MESSAGE, SUCCESS_MESSAGE, type ContactActionData } from "~/enquiries/schema";
import { HONEYPOT_FIELD } from "~/enquiries/spam";
import { submitEnquiry } from "~/enquiries/submit.server";
import { VALUATION_TEXT } from "~/enquiries/valuation";
import type { EnquiryKind } from "~/platform/db/schema";
import { requestContext } from "~/platform/http/context";
import { CONTACT_BODY_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";

const SUCCESS: Record<EnquiryKind, string> = { contact: SUCCESS_MESSAGE, valuation: VALUATION_TEXT.success };

/**
 * The action of a page whose enquiry form is posted as an HTML form (the
 * landing page's contact form, /valuation's valuation request): works with and
 * without JavaScript, through the one submitEnquiry the API uses too. What was
 * typed comes back with a refusal, for the form to show again.
 */
export function enquiryFormAction(kind: EnquiryKind, fieldNames: readonly string[]) {
  return withBody<{ request: Request; context: Readonly<RouterContextProvider> }, Record<string, string>, ReturnType<typeof data<ContactActionData>>>(
    (request) => readFormFields(request, CONTACT_BODY_LIMIT, FAILURE_MESSAGE),
    (refusal) =>
      data<ContactActionData>({ status: "error", error: refusal.message, fields: [], values: {} }, { status: refusal.status, headers: refusal.headers }),
    async ({ context }, fields) => {
      const values = Object.fromEntries(fieldNames.map((name) => [name, fields[name] ?? ""]));
      const result = await submitEnquiry(context.get(servicesContext), {
        input: { ...values, [HONEYPOT_FIELD]: fields[HONEYPOT_FIELD], formToken: fields.formToken },
        clientIp: context.get(requestContext).clientIp,
        tokenRequired: true,
        kind,
      });
      if (!result.ok) {
        return data<ContactActionData>(
          { status: "error", error: result.error, fields: result.fields, values },
          {
            status: result.status,
            headers: result.status === 400 ? undefined : { "Retry-After": String(result.retryAfterSeconds) },
          },
        );
      }
      return data<ContactActionData>({ status: "success", message: SUCCESS[kind] });
    },
  );
}
