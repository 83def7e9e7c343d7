import { LIMITS, SUCCESS_MESSAGE, USER_TYPES, USER_TYPE_LABELS, validateEnquiry, type ContactActionData } from "~/enquiries/schema";
import { Spinner } from "~/components/Spinner";
import { Icon } from "~/components/Icon";
import { Field, INPUT, SpamFields, useEnquiryForm } from "./enquiry-form";
import { BUTTON_STYLES } from "./ui";

const ERROR_ID = "contact-form-error";

/**
 * The enquiry form, an island (islands.ts). Without JavaScript it is a plain
 * POST to the index route's action and the page comes back with
 * `initialResult`. With JavaScript the shared validator checks it first and it
 * is sent to POST /api/contact without a reload: the same submitEnquiry,
 * checks and answers as the form's action. Spam defence needs no cookie and no
 * third party: a honeypot field and the signed time-trap token travel with the
 * form (see app/enquiries/spam.server.ts); sent, the token is checked there too.
 */
export function ContactForm({
  initialResult,
  formToken,
  retentionDays,
  privacyHref,
}: {
  initialResult: ContactActionData | undefined;
  formToken: string;
  retentionDays: number | undefined;
  /** "/privacy" once the company has published its Privacy Policy. */
  privacyHref?: string;
}) {
  const form = useEnquiryForm({ initialResult, validate: validateEnquiry, errorId: ERROR_ID, idPrefix: "contact", successText: SUCCESS_MESSAGE });
  const { submitting, fieldProps } = form;

  return (
    <div className="rounded-3xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-10">
      <h3 className="text-2xl font-bold text-slate-900">Send us a message</h3>
      <p className="mt-2 text-slate-600">
        Fields marked <span className="font-semibold text-red-700">*</span> are required.
      </p>

      {form.notices}

      <form key={form.formVersion} method="post" action="/?index#contact" noValidate onSubmit={form.onSubmit} className="mt-8 grid gap-6 sm:grid-cols-2">
        <SpamFields formToken={formToken} idPrefix="contact" />
        <Field label="Full Name" htmlFor="contact-name" required>
          <input {...fieldProps("name")} type="text" autoComplete="name" maxLength={LIMITS.name} aria-required="true" className={INPUT} />
        </Field>
        <Field label="Email Address" htmlFor="contact-email" required>
          <input {...fieldProps("email")} type="email" autoComplete="email" maxLength={LIMITS.email} aria-required="true" className={INPUT} />
        </Field>
        <Field label="Phone Number" htmlFor="contact-phone">
          <input {...fieldProps("phone")} type="tel" autoComplete="tel" maxLength={LIMITS.phone} className={INPUT} />
        </Field>
        <Field label="I am a" htmlFor="contact-userType" required>
          <select {...fieldProps("userType")} aria-required="true" className={INPUT}>
            <option value="">Please select</option>
            {USER_TYPES.map((type) => (
              <option key={type} value={type}>
                {USER_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Message" htmlFor="contact-message" required wide>
          <textarea {...fieldProps("message")} rows={5} aria-required="true" placeholder="Tell us about your property and how we can help" className={INPUT} />
        </Field>
        <div className="sm:col-span-2">
          <button type="submit" disabled={submitting} className={`w-full sm:w-auto ${BUTTON_STYLES.primary}`}>
            {submitting ? (
              <>
                <Spinner />
                Sending...
              </>
            ) : (
              <>
                Send Message
                <Icon name="arrowRight" className="size-5" />
              </>
            )}
          </button>
        </div>
      </form>

      <PrivacyNotice retentionDays={retentionDays} privacyHref={privacyHref} />
    </div>
  );
}

/** What happens to what is typed above, said where it is typed (UK GDPR, at the point of collection). */
export function PrivacyNotice({
  retentionDays,
  privacyHref,
  stored = "your name, e-mail address, phone number (if you give one) and message",
}: {
  retentionDays: number | undefined;
  privacyHref: string | undefined;
  /** What the form stores, in words. */
  stored?: string;
}) {
  const kept =
    retentionDays === undefined
      ? "They are kept only as long as needed to deal with your enquiry, and deleted on request."
      : `They are deleted after ${retentionDays} ${retentionDays === 1 ? "day" : "days"}.`;
  return (
    <p className="mt-8 border-t border-slate-200 pt-6 text-sm leading-6 text-slate-600">
      {/* One text, as the page has always sent it: React would put comments between the parts of a sentence built from pieces. */}
      {`We store ${stored} only to answer your enquiry; we never sell them or share them with third parties for marketing. ${kept} See our `}
      {/* A placeholder until the company has written it, like the footer's policy links. */}
      {privacyHref ? (
        <a href={privacyHref} className="font-semibold text-blue-700 underline underline-offset-2 hover:text-blue-900">
          Privacy Policy
        </a>
      ) : (
        // biome-ignore lint/a11y/useValidAnchor: an <a> without href is HTML's placeholder link, which the specification asks for until the policy is written.
        <a className="font-semibold text-slate-700">Privacy Policy</a>
      )}
      .
    </p>
  );
}
