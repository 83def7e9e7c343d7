import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { useHydrated } from "./use-hydrated";

export const ACTION_BUTTON =
  "inline-flex min-h-9 items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-medium ring-1 transition-colors text-slate-800 ring-slate-300 hover:bg-slate-50";

const hidden = (name: string, value: string) => <input type="hidden" name={name} value={value} />;

/**
 * A form whose action cannot be undone (removing a member, a passkey): with
 * JavaScript the browser's dialog asks first (and the form says it was
 * asked, `confirmed=yes`); without it the first post only asks, and the page
 * shows the question with <Confirmation> (decision 009).
 */
export function ConfirmedForm({
  action,
  intent,
  id,
  question,
  children,
}: {
  action: string;
  intent: string;
  id: string;
  question: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      onSubmit={(event) => {
        if (!window.confirm(question)) event.preventDefault();
      }}
    >
      {hidden("intent", intent)}
      {hidden("id", id)}
      {hydrated ? hidden("confirmed", "yes") : null}
      {children}
    </Form>
  );
}

/** Without JavaScript: the question on the page, with the button that does it and a way back. */
export function Confirmation({
  action,
  intent,
  id,
  question,
  button,
  cancel,
}: {
  action: string;
  intent: string;
  id: string;
  question: string;
  button: string;
  cancel: { to: string; label: string };
}) {
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4">
      <p className="text-sm text-red-900">{question}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <form method="post" action={action}>
          {hidden("intent", intent)}
          {hidden("id", id)}
          {hidden("confirmed", "yes")}
          <button type="submit" className={`${ACTION_BUTTON} bg-red-700 text-white ring-red-700 hover:bg-red-800`}>
            {button}
          </button>
        </form>
        <Link to={cancel.to} className={ACTION_BUTTON}>
          {cancel.label}
        </Link>
      </div>
    </div>
  );
}
