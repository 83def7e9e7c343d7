import { useState } from "react";
import { useLocation } from "react-router";
import { Spinner } from "~/components/Spinner";
import { PASSKEY_SIGN_IN_TEXT } from "./account-texts";
import { postPasskeyStep } from "./passkey-fetch";
import { DASHBOARD_PATH, RETURN_PATHS } from "./tabs";
import { useHydrated } from "./use-hydrated";

/**
 * "Sign in with a passkey" under the sign-in form: JavaScript only (WebAuthn
 * is the browser's; without it the form says so). Options and the check are
 * /api/passkey-sign-in's, held to the sign-in limits; on a bare IP address
 * the server's answer says to use the site's name or localhost.
 */
export function PasskeySignIn() {
  const T = PASSKEY_SIGN_IN_TEXT;
  const hydrated = useHydrated();
  const location = useLocation();
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const returnTo = RETURN_PATHS.has(location.pathname) ? `${location.pathname}${location.search}` : DASHBOARD_PATH;

  async function signIn() {
    setState({ busy: true });
    const fail = (error: string) => setState({ busy: false, error });
    const options = await postPasskeyStep<Parameters<typeof import("~/auth/passkey-client").usePasskeyInBrowser>[0]>("/api/passkey-sign-in", {
      step: "options",
    });
    if (!options.ok) return fail(options.message);
    // Not a React hook, whatever its name: the browser's WebAuthn call.
    const { usePasskeyInBrowser: signWithPasskey } = await import("~/auth/passkey-client");
    const used = await signWithPasskey(options.value);
    if (!used.ok) return fail(used.message);
    const signedIn = await postPasskeyStep<{ redirect: string }>("/api/passkey-sign-in", { step: "verify", response: used.response, returnTo });
    if (!signedIn.ok) return fail(signedIn.message);
    // A full load: the session cookie is new, and every loader reads it afresh.
    window.location.assign(signedIn.value.redirect);
  }

  return (
    <div className="mt-6 border-t border-slate-200 pt-6">
      <noscript>
        <p className="mb-3 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">{T.needsScript}</p>
      </noscript>
      <button
        type="button"
        onClick={() => void signIn()}
        disabled={!hydrated || state.busy}
        className="flex w-full items-center justify-center gap-2 rounded-lg bg-white px-4 py-3 font-semibold text-slate-900 shadow-sm ring-1 ring-slate-400 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {state.busy ? <Spinner className="size-4" /> : null}
        {state.busy ? T.working : T.button}
      </button>
      <div aria-live="polite">
        {state.error ? (
          <p role="alert" className="mt-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
            {state.error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
