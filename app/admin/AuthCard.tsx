import { useEffect, useRef, type ComponentProps, type ReactNode } from "react";
import { Link } from "react-router";
import { Icon, type IconName } from "~/components/Icon";
import { Spinner } from "~/components/Spinner";

/** The text fields of the sign-in screens. */
export const AUTH_INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";

export const AUTH_LINK = "text-blue-800 underline underline-offset-2 hover:text-blue-950";

/**
 * The card every sign-in screen sits in (the sign-in form, "Forgot your
 * password?", the new password, the two-step code, the invitation's page): a
 * heading, a line under it, the screen's own content, and a way back below.
 */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  icon = "lock",
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  icon?: IconName;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
        <div className="text-center">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-blue-100 text-blue-800" aria-hidden="true">
            <Icon name={icon} className="size-6" />
          </div>
          <h1 className="mt-4 text-2xl font-bold text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-2 text-slate-600">{subtitle}</p> : null}
        </div>
        {children}
        <p className="mt-6 text-center text-sm">
          {footer ?? (
            <Link to="/" className={AUTH_LINK}>
              Back to the website
            </Link>
          )}
        </p>
      </div>
    </main>
  );
}

/** A field of the sign-in screens: its label above it, and the input (AUTH_INPUT unless told otherwise) with whatever else it is given. */
export function AuthField({ id, label, className = AUTH_INPUT, ...input }: { id: string; label: string } & ComponentProps<"input">) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} className={className} {...input} />
    </div>
  );
}

/** A form's error, tied to its fields by `id` (aria-describedby), announced as it appears. */
export function AuthError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  );
}

/** A plain notice: something done (the new password set), or something to know (e-mail is off). */
export function AuthNotice({ children }: { children: ReactNode }) {
  return <p className="mt-6 rounded-lg border border-blue-300 bg-blue-50 px-4 py-3 text-sm text-blue-950">{children}</p>;
}

export function AuthSubmit({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="flex w-full items-center justify-center gap-2 rounded-lg bg-blue-700 px-4 py-3 font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-wait disabled:bg-blue-700/80"
    >
      {busy ? <Spinner className="size-4" /> : null}
      {busy ? busyLabel : label}
    </button>
  );
}

/**
 * The field a refused form is about: focused when the answer comes, so the
 * keyboard is back where the fix is typed and a screen reader reads the
 * label, "invalid" and the error (aria-describedby). Without JavaScript the
 * page's autofocus attribute does the same.
 */
export function useFocusOnError(error: string | undefined) {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error && field.current) {
      // Passwords and codes are typed again (every password field of the form: the two must match).
      if (field.current.type !== "email") field.current.value = "";
      for (const password of field.current.form?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? []) password.value = "";
      field.current.focus();
    }
  }, [error]);
  return field;
}
