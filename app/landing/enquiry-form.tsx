import { useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { Icon } from "~/components/Icon";
import { FAILURE_MESSAGE, type ContactActionData } from "~/enquiries/schema";
import { HONEYPOT_FIELD } from "~/enquiries/spam";

/**
 * What the contact form and the valuation form share (islands, decision 015):
 * without JavaScript each is a plain POST and the page comes back with its
 * result; with it, the shared validator checks it first and it is sent to
 * POST /api/contact without a reload, focus moving to the answer.
 */

type Notice = { kind: "success" | "error"; text: string };

/** What the visitor is shown about the last attempt, with JavaScript. */
type Outcome = { status: "success" } | { status: "error"; error: string; fields: string[] };

type Validation = { success: true } | { success: false; error: string; fields: readonly string[] };

export function useEnquiryForm({
  initialResult,
  validate,
  errorId,
  idPrefix,
  successText,
}: {
  initialResult: ContactActionData | undefined;
  validate: (fields: Record<string, string>) => Validation;
  /** The error notice's id, which the invalid fields point to. */
  errorId: string;
  /** Each field's id is `<idPrefix>-<name>`. */
  idPrefix: string;
  /** Said once the enquiry is stored. */
  successText: string;
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
  else if (!submitting && result?.status === "success") notice = { kind: "success", text: successText };

  useEffect(() => {
    if (answered > 0) noticeRef.current?.focus();
  }, [answered]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const fields = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const validation = validate(fields);
    if (!validation.success) {
      setOutcome({ status: "error", error: validation.error, fields: [...validation.fields] });
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

  /** A text field's, a select's or a textarea's props. */
  const fieldProps = (name: string) => ({
    id: `${idPrefix}-${name}`,
    name,
    "aria-invalid": invalidFields.has(name) || undefined,
    "aria-describedby": invalidFields.has(name) ? errorId : undefined,
    defaultValue: values[name] ?? "",
  });

  const notices = (
    <>
      <div role="alert" className="empty:hidden">
        {notice?.kind === "error" ? (
          <NoticeBox ref={noticeRef} id={errorId} kind="error">
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
    </>
  );

  return { submitting, formVersion, values, invalidFields, fieldProps, notices, onSubmit: (event: FormEvent<HTMLFormElement>) => void handleSubmit(event) };
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

/** The time-trap token and the honeypot: off-screen rather than display:none (some bots skip those), out of the accessibility tree and the tab order. */
export function SpamFields({ formToken, idPrefix }: { formToken: string; idPrefix: string }) {
  return (
    <>
      <input type="hidden" name="formToken" value={formToken} />
      <div aria-hidden="true" className="absolute -left-[10000px] size-px overflow-hidden">
        <label htmlFor={`${idPrefix}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input id={`${idPrefix}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
    </>
  );
}

export const INPUT =
  "block w-full rounded-xl border-0 bg-white px-4 py-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-500 placeholder:text-slate-600 aria-[invalid=true]:bg-red-50 aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-red-600";

/** The red star after a required field's label or legend, hidden from screen readers (the field says aria-required). */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700">
      *
    </span>
  );
}

export function Field({
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
        {required ? <RequiredMark /> : null}
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
