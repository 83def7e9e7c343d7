import { useEffect, useId, useRef, type RefObject } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { DataHeld } from "~/enquiries/data-requests.server";
import { INVALID_EMAIL_MESSAGE } from "~/enquiries/schema";
import { Spinner } from "~/components/Spinner";
import { AdminHeader } from "./AdminHeader";
import { NoticeRegion } from "./NoticeRegion";
import { tabPath } from "./tabs";
import type { Notice } from "./types";
import { useHydrated } from "./use-hydrated";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const DATA_REQUESTS_TEXT = {
  title: "Data requests (UK GDPR)",
  intro:
    "Find everything the website holds about one e-mail address: its enquiries (spam included) and the e-mails written about them. " +
    "Download it as JSON when that person asks for a copy, or erase it when they ask to be forgotten.",
  emailLabel: "Email address",
  emailHint: "Upper and lower case do not matter.",
  find: "Find",
  finding: "Finding...",
  invalid: INVALID_EMAIL_MESSAGE,
  held: (email: string, held: DataHeld) =>
    held.submissions === 0
      ? `Nothing is held for ${email}.`
      : `${plural(held.submissions, "submission", "submissions")}${held.spam > 0 ? ` (${held.spam} of them spam)` : ""} and ` +
        `${plural(held.emailJobs, "e-mail job", "e-mail jobs")} are held for ${email}.`,
  download: "Download as JSON",
  erase: "Erase",
  eraseConfirm: (email: string, submissions: number) =>
    `Erase ${plural(submissions, "submission", "submissions")} for ${email}, and the e-mails about them? This action cannot be undone.`,
  cancel: "Cancel",
  erased: (email: string, submissions: number) => `Erased ${plural(submissions, "submission", "submissions")} for ${email}.`,
  eraseFailure: "Error erasing the data. Please try again.",
  loadFailure: "Error loading the data held. Please try again.",
  back: "Back to Contact Submissions",
} as const;

/** What the loader found for the address in the URL (?email=). */
export type DataRequestLookup =
  | { status: "none" }
  | { status: "invalid"; input: string }
  | { status: "found"; email: string; held: DataHeld }
  | { status: "error"; email: string };

export type DataRequestActionData = {
  notice?: Notice;
  /** Without JavaScript an erase first asks on the page: what it would erase. */
  confirmErase?: { email: string; submissions: number };
};

export function dataRequestHref(email: string, format?: "json"): string {
  const params = new URLSearchParams({ email });
  if (format) params.set("format", format);
  return `/admin/data-requests?${params}`;
}

const BUTTON = "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium ring-1 transition-colors";
const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-red-600";

export function DataRequestsPage({
  adminEmail,
  company,
  lookup,
  actionData,
}: {
  adminEmail: string;
  company: { name: string; logoUrl: string };
  lookup: DataRequestLookup;
  actionData: DataRequestActionData | undefined;
}) {
  const navigation = useNavigation();
  const location = useLocation();
  const hydrated = useHydrated();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const result = useRef<HTMLParagraphElement>(null);
  const finding = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "GET";
  const typed = lookup.status === "invalid" ? lookup.input : lookup.status === "none" ? "" : lookup.email;

  // After a search (a new location without an action's answer), focus goes to what it found, so
  // it is read out at once. An erase's answer has the notice above, which takes focus itself.
  const shownLocation = useRef(location.key);
  useEffect(() => {
    if (shownLocation.current === location.key) return;
    shownLocation.current = location.key;
    if (!actionData) result.current?.focus();
  }, [location.key, actionData]);

  return (
    <div className="min-h-dvh bg-slate-100">
      <AdminHeader email={adminEmail} logoUrl={company.logoUrl} />

      <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <p>
          <Link to={tabPath("enquiries")} className="text-sm text-blue-800 underline underline-offset-2 hover:text-blue-950">
            ← {DATA_REQUESTS_TEXT.back}
          </Link>
        </p>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">{DATA_REQUESTS_TEXT.title}</h1>
        <p className="mt-2 text-slate-700">{DATA_REQUESTS_TEXT.intro}</p>

        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
          {/* noValidate: the server's message, in the page, for every problem (no browser bubble that says something else). */}
          <Form method="get" noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1">
              <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
                {DATA_REQUESTS_TEXT.emailLabel}
              </label>
              <input
                key={typed}
                id={fieldId}
                name="email"
                type="email"
                required
                autoComplete="off"
                spellCheck={false}
                defaultValue={typed}
                aria-invalid={lookup.status === "invalid" ? true : undefined}
                aria-describedby={lookup.status === "invalid" ? `${errorId} ${hintId}` : hintId}
                className={INPUT}
              />
              <p id={hintId} className="mt-2 text-sm text-slate-600">
                {DATA_REQUESTS_TEXT.emailHint}
              </p>
            </div>
            {/* Level with the field, below its label. */}
            <button
              type="submit"
              disabled={finding}
              className={`${BUTTON} bg-blue-700 py-3 text-white sm:mt-7 ring-blue-700 hover:bg-blue-800 disabled:cursor-wait disabled:opacity-80`}
            >
              {finding ? <Spinner className="size-4" /> : null}
              {finding ? DATA_REQUESTS_TEXT.finding : DATA_REQUESTS_TEXT.find}
            </button>
          </Form>

          <div className="mt-5 space-y-4">
            <NoticeRegion notice={actionData?.notice} watch={lookup} />
            {lookup.status === "invalid" ? (
              <p ref={result} id={errorId} tabIndex={-1} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
                {DATA_REQUESTS_TEXT.invalid}
              </p>
            ) : lookup.status === "error" ? (
              <p ref={result} tabIndex={-1} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
                {DATA_REQUESTS_TEXT.loadFailure}
              </p>
            ) : lookup.status === "found" ? (
              <HeldData email={lookup.email} held={lookup.held} resultRef={result} confirming={actionData?.confirmErase !== undefined} hydrated={hydrated} />
            ) : null}
            {actionData?.confirmErase ? <ConfirmErase {...actionData.confirmErase} /> : null}
          </div>
        </div>
      </main>
    </div>
  );
}

function HeldData({
  email,
  held,
  resultRef,
  confirming,
  hydrated,
}: {
  email: string;
  held: DataHeld;
  resultRef: RefObject<HTMLParagraphElement | null>;
  /** Without JavaScript: an erase is waiting for confirmation on the page, which has its own button. */
  confirming: boolean;
  hydrated: boolean;
}) {
  const confirmText = DATA_REQUESTS_TEXT.eraseConfirm(email, held.submissions);
  return (
    <div className="space-y-4">
      <p ref={resultRef} tabIndex={-1} className="text-slate-800 [overflow-wrap:anywhere]">
        {DATA_REQUESTS_TEXT.held(email, held)}
      </p>
      {held.submissions > 0 ? (
        <div className="flex flex-wrap gap-2">
          {/* A plain link: the browser downloads the file (Content-Disposition), the page stays. */}
          <a href={dataRequestHref(email, "json")} download className={`${BUTTON} bg-white text-blue-800 ring-slate-300 hover:bg-slate-50`}>
            {DATA_REQUESTS_TEXT.download}
          </a>
          {confirming ? null : (
            <Form
              method="post"
              onSubmit={(event) => {
                // Asks with the browser's own dialog; without JavaScript the page asks instead (decision 009).
                if (!window.confirm(confirmText)) event.preventDefault();
              }}
            >
              <input type="hidden" name="intent" value="erase" />
              <input type="hidden" name="email" value={email} />
              {hydrated ? <input type="hidden" name="confirmed" value="yes" /> : null}
              <button type="submit" className={`${BUTTON} bg-white text-red-800 ring-red-300 hover:bg-red-50`}>
                {DATA_REQUESTS_TEXT.erase}
              </button>
            </Form>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** Without JavaScript, the erase asks here first (decision 009); nothing is erased until this form is sent. */
function ConfirmErase({ email, submissions }: { email: string; submissions: number }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4">
      <p className="text-sm text-red-900 [overflow-wrap:anywhere]">{DATA_REQUESTS_TEXT.eraseConfirm(email, submissions)}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <form method="post">
          <input type="hidden" name="intent" value="erase" />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="confirmed" value="yes" />
          <button type="submit" className={`${BUTTON} bg-red-700 text-white ring-red-700 hover:bg-red-800`}>
            {DATA_REQUESTS_TEXT.erase}
          </button>
        </form>
        <Link to={dataRequestHref(email)} className={`${BUTTON} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`}>
          {DATA_REQUESTS_TEXT.cancel}
        </Link>
      </div>
    </div>
  );
}
