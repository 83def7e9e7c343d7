import { useId } from "react";
import { Form, Link } from "react-router";
import { Icon } from "~/components/Icon";
import { RESET_TEXT } from "./reset-texts";

const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";
const BUTTON = "flex w-full items-center justify-center gap-2 rounded-lg bg-blue-700 px-4 py-3 font-semibold text-white shadow-sm hover:bg-blue-800";
const LINK = "text-blue-800 underline underline-offset-2 hover:text-blue-950";

/** What "Forgot your password?" answers: the same for every address (decision 043), or why it could not. */
export type ForgotAnswer = { kind: "sent" | "error"; text: string; email: string };

/** A page's card, as the sign-in form's. */
function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
        <div className="text-center">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-blue-100 text-blue-800" aria-hidden="true">
            <Icon name="lock" className="size-6" />
          </div>
          <h1 className="mt-4 text-2xl font-bold text-slate-900">{title}</h1>
        </div>
        {children}
        <p className="mt-6 text-center text-sm">
          <Link to="/admin/sign-in" className={LINK}>
            {RESET_TEXT.backToSignIn}
          </Link>
        </p>
      </div>
    </main>
  );
}

function Problem({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
      {text}
    </p>
  );
}

/** /admin/forgot-password: a plain form (no JavaScript needed); its answer is the page again with the answer. */
export function ForgotPasswordScreen({ answer }: { answer?: ForgotAnswer }) {
  const problemId = useId();
  const failed = answer?.kind === "error";
  return (
    <Card title={RESET_TEXT.forgotTitle}>
      {answer?.kind === "sent" ? (
        <p role="status" className="mt-6 rounded-lg border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
          {answer.text}
        </p>
      ) : (
        <Form method="post" className="mt-6 space-y-5">
          <p className="text-slate-700">{RESET_TEXT.forgotIntro}</p>
          <div>
            <label htmlFor="reset-email" className="block text-sm font-medium text-slate-800">
              {RESET_TEXT.email}
            </label>
            <input
              id="reset-email"
              name="email"
              type="email"
              required
              autoComplete="username"
              spellCheck={false}
              defaultValue={answer?.email}
              aria-invalid={failed ? true : undefined}
              aria-describedby={failed ? problemId : undefined}
              className={INPUT}
            />
          </div>
          {failed ? <Problem id={problemId} text={answer.text} /> : null}
          <button type="submit" className={BUTTON}>
            {RESET_TEXT.send}
          </button>
        </Form>
      )}
    </Card>
  );
}

/** The page the e-mailed link opens: the new password twice, or why the link does not work. */
export type ResetView = { state: "open"; email: string } | { state: "refused"; message: string };

export function ResetPasswordScreen({ view, problem }: { view: ResetView; problem?: string }) {
  const problemId = useId();
  const hintId = useId();
  if (view.state === "refused") {
    return (
      <Card title={RESET_TEXT.resetTitle}>
        <p role="alert" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {view.message}
        </p>
        <p className="mt-4 text-center text-sm">
          <Link to="/admin/forgot-password" className={LINK}>
            {RESET_TEXT.link}
          </Link>
        </p>
      </Card>
    );
  }
  const describedBy = problem ? `${hintId} ${problemId}` : hintId;
  return (
    <Card title={RESET_TEXT.resetTitle}>
      <Form method="post" className="mt-6 space-y-5">
        <p className="text-slate-700">{RESET_TEXT.resetIntro(view.email)}</p>
        {/* For password managers: the account the new password belongs to. */}
        <input type="hidden" name="username" autoComplete="username" value={view.email} />
        <div>
          <label htmlFor="reset-password" className="block text-sm font-medium text-slate-800">
            {RESET_TEXT.password}
          </label>
          <input
            id="reset-password"
            name="password"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy}
            className={INPUT}
          />
          <p id={hintId} className="mt-1 text-sm text-slate-600">
            {RESET_TEXT.passwordHint}
          </p>
        </div>
        <div>
          <label htmlFor="reset-repeat" className="block text-sm font-medium text-slate-800">
            {RESET_TEXT.repeat}
          </label>
          <input
            id="reset-repeat"
            name="repeat"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
            className={INPUT}
          />
        </div>
        {problem ? <Problem id={problemId} text={problem} /> : null}
        <button type="submit" className={BUTTON}>
          {RESET_TEXT.save}
        </button>
      </Form>
    </Card>
  );
}
