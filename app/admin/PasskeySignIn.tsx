import { useState } from "react";
import { useLocation } from "react-router";
import { PASSKEY_SIGN_IN_TEXT } from "./account-texts";
import { PasskeyButton } from "./PasskeyButton";
import { postPasskeyStep } from "./passkey-fetch";
import { DASHBOARD_PATH, RETURN_PATHS } from "./tabs";

/**
 * "Sign in with a passkey" under the sign-in form: JavaScript only (WebAuthn
 * is the browser's; without it the form says so). Options and the check are
 * /api/passkey-sign-in's, held to the sign-in limits; on a bare IP address
 * the server's answer says to use the site's name or localhost.
 */
export function PasskeySignIn() {
  const T = PASSKEY_SIGN_IN_TEXT;
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

  return <PasskeyButton label={T.button} working={T.working} needsScript={T.needsScript} busy={state.busy} error={state.error} onPress={() => void signIn()} />;
}
