import { useEffect, useId, useRef } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { Icon } from "~/components/Icon";
import { Spinner } from "~/components/Spinner";
import { PasskeySignIn } from "./PasskeySignIn";
import { DASHBOARD_PATH, RETURN_PATHS } from "./tabs";
import { LOGIN_TEXT } from "./texts";

/** What the sign-in action answers when it does not sign in. */
export type SignInFailure = { error: string; email: string };

const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";

/**
 * The sign-in form. A plain POST to /admin/sign-in without JavaScript; with
 * it, a fetcher, so the page stays put and the button says "Signing in...".
 * `result` is the action's answer when the page itself is that answer (no JavaScript).
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

  // After a failure the password is cleared, ready for another try.
  useEffect(() => {
    if (fetcher.data?.error && password.current) {
      password.current.value = "";
      password.current.focus();
    }
  }, [fetcher.data]);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
        <div className="text-center">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-blue-100 text-blue-800" aria-hidden="true">
            <Icon name="lock" className="size-6" />
          </div>
          <h1 className="mt-4 text-2xl font-bold text-slate-900">{LOGIN_TEXT.title}</h1>
          <p className="mt-2 text-slate-600">{LOGIN_TEXT.subtitle}</p>
        </div>

        <fetcher.Form method="post" action="/admin/sign-in" className="mt-8 space-y-5">
          <input type="hidden" name="returnTo" value={returnTo} />
          <div>
            <label htmlFor="admin-email" className="block text-sm font-medium text-slate-800">
              {LOGIN_TEXT.email}
            </label>
            <input
              id="admin-email"
              name="email"
              type="email"
              required
              autoComplete="username"
              spellCheck={false}
              defaultValue={failure?.email}
              aria-invalid={failure ? true : undefined}
              aria-describedby={failure ? errorId : undefined}
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor="admin-password" className="block text-sm font-medium text-slate-800">
              {LOGIN_TEXT.password}
            </label>
            <input
              ref={password}
              id="admin-password"
              name="password"
              type="password"
              required
              autoComplete="current-password"
              aria-invalid={failure ? true : undefined}
              aria-describedby={failure ? errorId : undefined}
              className={INPUT}
            />
          </div>

          {failure ? (
            <p id={errorId} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
              {failure.error}
            </p>
          ) : null}

          <button
            type="submit"
            disabled={busy}
            className="flex w-full items-center justify-center gap-2 rounded-lg bg-blue-700 px-4 py-3 font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-wait disabled:bg-blue-700/80"
          >
            {busy ? <Spinner className="size-4" /> : null}
            {busy ? LOGIN_TEXT.submitting : LOGIN_TEXT.submit}
          </button>
        </fetcher.Form>
        <PasskeySignIn />

        <p className="mt-6 text-center text-sm">
          <Link to="/" className="text-blue-800 underline underline-offset-2 hover:text-blue-950">
            Back to the website
          </Link>
        </p>
      </div>
    </main>
  );
}
