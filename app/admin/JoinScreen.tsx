import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { PASSWORD_RULES } from "~/platform/password-rules";
import { AuthCard, AuthSubmit } from "./AuthCard";
import { JoinPasskey } from "./JoinPasskey";
import { JOIN_TEXT } from "./team-texts";

/** What the invitation's page shows: the invitation, or why its link cannot be used. */
export type JoinView =
  | { state: "open"; company: string; email: string; roleLabel: string; roleDescription: string; expires: string }
  | { state: "refused"; company: string; message: string; signIn: boolean };

/** The form's answer when it did not sign in: what to correct, and the name typed (never the password). */
export type JoinAttempt = { errors: { name?: string; password?: string; form?: string }; name: string };

const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-red-700";

/**
 * The invitation's page (/admin/join?token=…, decision 050), for somebody
 * not signed in: the company, the role, and a name and password to choose
 * (or, with JavaScript, a passkey instead of the password: JoinPasskey).
 * A plain POST to the same address, so it works without JavaScript; the
 * answer signs the new member in and opens their first tab.
 */
export function JoinScreen({ view, attempt }: { view: JoinView; attempt: JoinAttempt | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = attempt?.errors ?? {};
  const name = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);

  // A refused form: the password is typed again, and focus goes to the first field to correct.
  useEffect(() => {
    if (!attempt) return;
    if (password.current) password.current.value = "";
    (attempt.errors.name ? name : password).current?.focus();
  }, [attempt]);

  return (
    <AuthCard title={view.state === "open" ? JOIN_TEXT.title(view.company) : JOIN_TEXT.cannotUse} icon={view.state === "open" ? "users" : "exclamation"}>
      {view.state === "refused" ? (
        <>
          <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
            {view.message}
          </p>
          {view.signIn ? (
            <p className="mt-6 text-center">
              <Link to="/admin" className="font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-950">
                {JOIN_TEXT.signIn}
              </Link>
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p className="mt-4 text-slate-700">{JOIN_TEXT.invited(view.roleLabel, view.roleDescription)}</p>
          <p className="mt-2 text-sm text-slate-600">{JOIN_TEXT.expires(view.expires)}</p>

          {/* No action: it posts to this page's own address, link and all. */}
          <Form method="post" className="mt-6 space-y-5">
            <div>
              <label htmlFor="join-email" className="block text-sm font-medium text-slate-800">
                {JOIN_TEXT.email}
              </label>
              {/* Read only, for the browser's password manager to save the password with. */}
              <input id="join-email" type="email" value={view.email} readOnly autoComplete="username" className={`${INPUT} bg-slate-50`} />
            </div>
            <div>
              <label htmlFor="join-name" className="block text-sm font-medium text-slate-800">
                {JOIN_TEXT.name}
              </label>
              <input
                ref={name}
                id="join-name"
                name="name"
                type="text"
                required
                maxLength={100}
                autoComplete="name"
                defaultValue={attempt?.name}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? "join-name-error" : undefined}
                className={INPUT}
              />
              {errors.name ? (
                <p id="join-name-error" className="mt-2 text-sm text-red-800">
                  {errors.name}
                </p>
              ) : null}
            </div>
            <div>
              <label htmlFor="join-password" className="block text-sm font-medium text-slate-800">
                {JOIN_TEXT.password}
              </label>
              <input
                ref={password}
                id="join-password"
                name="password"
                type="password"
                required
                minLength={PASSWORD_RULES.minLength}
                maxLength={PASSWORD_RULES.maxLength}
                autoComplete="new-password"
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={`join-password-hint${errors.password ? " join-password-error" : ""}`}
                className={INPUT}
              />
              <p id="join-password-hint" className="mt-2 text-sm text-slate-600">
                {JOIN_TEXT.passwordHint}
              </p>
              {errors.password ? (
                <p id="join-password-error" className="mt-1 text-sm text-red-800">
                  {errors.password}
                </p>
              ) : null}
            </div>

            {errors.form ? (
              <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
                {errors.form}
              </p>
            ) : errors.name || errors.password ? (
              <p role="alert" className="sr-only">
                {[errors.name, errors.password].filter(Boolean).join(" ")}
              </p>
            ) : null}

            <AuthSubmit busy={busy} label={JOIN_TEXT.submit} busyLabel={JOIN_TEXT.submitting} />
          </Form>
          <JoinPasskey nameFieldId="join-name" />
        </>
      )}
    </AuthCard>
  );
}
