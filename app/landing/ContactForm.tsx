import { useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { FAILURE_MESSAGE, LIMITS, SUCCESS_MESSAGE, USER_TYPES, USER_TYPE_LABELS, validateEnquiry, type ContactActionData } from "~/enquiries/schema";
import { Spinner } from "~/components/Spinner";
import { Icon } from "~/components/Icon";
import { HONEYPOT_FIELD } from "~/enquiries/spam";
import { BUTTON_STYLES } from "./ui";

const ERROR_ID = "contact-form-error";

type Notice = { kind: "success" | "error"; text: string };

/** What the visitor is shown about the last attempt, with JavaScript. */
type Outcome = { status: "success" } | { status: "error"; error: string; fields: string[] };

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
  const [submitting, setSubmitting] = useState(false);
  // Null until the visitor sends the form in this page; then it replaces the no-JavaScript result.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // A new key after each success gives a fresh, empty form.
  const [formVersion, setFormVersion] = useState(0);
  // Bumped when a server answer arrives, to move focus to its notice once it is shown.
  const [answered, setAnswered] = useState(0);
  const noticeRef = useRef<HTMLDivElement>(null);

  const result: Outcome | ContactActionData | undefined = outcome ?? initialResult;
  // What was typed, for the form without JavaScript; with it the fields simply keep their values.
  const values = outcome === null && initialResult?.status === "error" ? initialResult.values : {};
  const invalidFields = new Set(submitting || result?.status !== "error" ? [] : result.fields);

  let notice: Notice | null = null;
  if (!submitting && result?.status === "error") notice = { kind: "error", text: result.error || FAILURE_MESSAGE };
  else if (!submitting && result?.status === "success") notice = { kind: "success", text: SUCCESS_MESSAGE };

  useEffect(() => {
    if (answered > 0) noticeRef.current?.focus();
  }, [answered]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const fields = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const validation = validateEnquiry(fields);
    if (!validation.success) {
      setOutcome({ status: "error", error: validation.error, fields: validation.fields });
      const firstField = validation.fields[0];
      if (firstField) form.querySelector<HTMLElement>(`[name="${firstField}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    const answer = await send(fields);
    setSubmitting(false);
    setOutcome(answer);
    if (answer.status === "success") setFormVersion((version) => version + 1);
    setAnswered((count) => count + 1);
  }

  const fieldProps = (name: string) => ({
    id: `contact-${name}`,
    name,
    "aria-invalid": invalidFields.has(name) || undefined,
    "aria-describedby": invalidFields.has(name) ? ERROR_ID : undefined,
    defaultValue: values[name] ?? "",
  });

  return (
    <div className="rounded-3xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-10">
      <h3 className="text-2xl font-bold text-slate-900">Send us a message</h3>
      <p className="mt-2 text-slate-600">
        Fields marked <span className="font-semibold text-red-700">*</span> are required.
      </p>

      <div role="alert" className="empty:hidden">
        {notice?.kind === "error" ? (
          <NoticeBox ref={noticeRef} id={ERROR_ID} kind="error">
            {notice.text}
          </NoticeBox>
        ) : null}
      </div>
      <div role="status" className="empty:hidden">
        {notice?.kind === "success" ? (
          <NoticeBox ref={noticeRef} kind="success">
            {notice.text}
          </NoticeBox>
        ) : null}
      </div>

      <form
        key={formVersion}
        method="post"
        action="/?index#contact"
        noValidate
        onSubmit={(event) => void handleSubmit(event)}
        className="mt-8 grid gap-6 sm:grid-cols-2"
      >
        <input type="hidden" name="formToken" value={formToken} />
        {/* The honeypot: off-screen rather than display:none (some bots skip those), out of the accessibility tree and the tab order. */}
        <div aria-hidden="true" className="absolute -left-[10000px] size-px overflow-hidden">
          <label htmlFor={`contact-${HONEYPOT_FIELD}`}>Leave this field empty</label>
          <input id={`contact-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
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

/**
 * Sends the form's fields (the honeypot and the token included) as JSON. Any
 * answer that is not the API's own (the network down, a proxy's error page)
 * is the specification's failure message; the form keeps what was typed.
 */
async function send(fields: Record<string, string>): Promise<Outcome> {
  try {
    const response = await fetch("/api/contact", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(fields),
    });
    const body = (await response.json().catch(() => null)) as { ok?: unknown; error?: unknown; fields?: unknown } | null;
    if (response.ok && body?.ok === true) return { status: "success" };
    const error = typeof body?.error === "string" ? body.error : FAILURE_MESSAGE;
    const invalid = Array.isArray(body?.fields) ? body.fields.filter((field) => typeof field === "string") : [];
    return { status: "error", error, fields: invalid };
  } catch (error) {
    console.error("Could not send the enquiry:", error);
    return { status: "error", error: FAILURE_MESSAGE, fields: [] };
  }
}

/** What happens to what is typed above, said where it is typed (UK GDPR, at the point of collection). */
function PrivacyNotice({ retentionDays, privacyHref }: { retentionDays: number | undefined; privacyHref: string | undefined }) {
  const kept =
    retentionDays === undefined
      ? "They are kept only as long as needed to deal with your enquiry, and deleted on request."
      : `They are deleted after ${retentionDays} ${retentionDays === 1 ? "day" : "days"}.`;
  return (
    <p className="mt-8 border-t border-slate-200 pt-6 text-sm leading-6 text-slate-600">
      We store your name, e-mail address, phone number (if you give one) and message only to answer your enquiry; we never sell them or share them with third
      parties for marketing. {kept} See our {/* A placeholder until the company has written it, like the footer's policy links. */}
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

const INPUT =
  "block w-full rounded-xl border-0 bg-white px-4 py-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-500 placeholder:text-slate-600 aria-[invalid=true]:bg-red-50 aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-red-600";

function Field({
  label,
  htmlFor,
  required = false,
  wide = false,
  children,
}: {
  label: string;
  htmlFor: string;
  required?: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={htmlFor} className="mb-2 block text-sm font-semibold text-slate-800">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        ) : null}
      </label>
      {children}
    </div>
  );
}

function NoticeBox({ ref, id, kind, children }: { ref: Ref<HTMLDivElement>; id?: string; kind: Notice["kind"]; children: ReactNode }) {
  return (
    <div
      ref={ref}
      id={id}
      tabIndex={-1}
      className={
        kind === "success"
          ? "mt-6 flex items-start gap-3 rounded-xl bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-300"
          : "mt-6 flex items-start gap-3 rounded-xl bg-red-50 p-4 text-red-900 ring-1 ring-red-300"
      }
    >
      <Icon
        name={kind === "success" ? "checkCircle" : "exclamation"}
        className={`size-6 shrink-0 ${kind === "success" ? "text-emerald-700" : "text-red-700"}`}
      />
      <p className="font-medium">{children}</p>
    </div>
  );
}
