import { useEffect, useId, useRef } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { AUTH_LINK, AuthCard, AuthError, AuthNotice, AuthSubmit, AuthField } from "./AuthCard";
import { FORGOT_TEXT, RESET_TEXT } from "./sign-in-texts";
import { PasskeySignIn } from "./PasskeySignIn";
import { DASHBOARD_PATH, RETURN_PATHS } from "./tabs";
import { LOGIN_TEXT } from "./texts";

/** What the sign-in action answers when it does not sign in. */
export type SignInFailure = { error: string; email: string };

/** "Forgot your password?" (routes/admin.forgot-password.tsx). */
export const FORGOT_PATH = "/admin/forgot-password";
/** Where a new password set through an e-mailed link sends the member: the sign-in form, with a word that it is done. */
export const PASSWORD_RESET_DONE_PATH = "/admin/sign-in?reset=done";

/**
 * The sign-in form. A plain POST to /admin/sign-in without JavaScript; with
 * it, a fetcher, so the page stays put and the button says "Signing in...".
 * `result` is the action's answer when the page itself is that answer (no JavaScript).
 * Other ways in (a passkey) go after the form, inside the card.
 */

export function LoginScreen({ result }: { result?: SignInFailure }) {
  const fetcher = useFetcher<SignInFailure>();
  const failure = fetcher.data ?? result;
  const busy = fetcher.state !== "idle";
  const password = useRef<HTMLInputElement>(null);
  const errorId = useId();
  // Signed out mid-task (the session ended): come back to the same view after signing in.
  const location = useLocation();
  const returnTo = RETURN_PATHS.has(location.pathname) ? `${location.pathname}${location.search}` : DASHBOARD_PATH;
  const passwordReset = location.pathname === "/admin/sign-in" && new URLSearchParams(location.search).get("reset") === "done";

  // After a failure the password is cleared, ready for another try.
  useEffect(() => {
    if (fetcher.data?.error && password.current) {
      password.current.value = "";
      password.current.focus();
    }
  }, [fetcher.data]);

  return (
    <AuthCard title={LOGIN_TEXT.title} subtitle={LOGIN_TEXT.subtitle}>
      {passwordReset && !failure ? <AuthNotice>{RESET_TEXT.done}</AuthNotice> : null}
      <fetcher.Form method="post" action="/admin/sign-in" className="mt-8 space-y-5">
        <input type="hidden" name="returnTo" value={returnTo} />
        <AuthField
          id="admin-email"
          label={LOGIN_TEXT.email}
          name="email"
          type="email"
          required
          autoComplete="username"
          spellCheck={false}
          defaultValue={failure?.email}
          aria-invalid={failure ? true : undefined}
          aria-describedby={failure ? errorId : undefined}
        />
        <AuthField
          id="admin-password"
          label={LOGIN_TEXT.password}
          ref={password}
          name="password"
          type="password"
          required
          autoComplete="current-password"
          aria-invalid={failure ? true : undefined}
          aria-describedby={failure ? errorId : undefined}
        />

        {failure ? <AuthError id={errorId}>{failure.error}</AuthError> : null}

        <AuthSubmit busy={busy} label={LOGIN_TEXT.submit} busyLabel={LOGIN_TEXT.submitting} />
        {/* After the button, so that Tab goes from the password to Sign In (Enter in either field signs in too). */}
        <p className="text-center text-sm">
          <Link to={FORGOT_PATH} className={AUTH_LINK}>
            {FORGOT_TEXT.link}
          </Link>
        </p>
      </fetcher.Form>
      <PasskeySignIn />
    </AuthCard>
  );
}
