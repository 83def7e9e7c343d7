import { useId, useState } from "react";
import { useLocation } from "react-router";
import { PasskeyButton } from "./PasskeyButton";
import { postPasskeyStep } from "./passkey-fetch";
import { JOIN_TEXT } from "./team-texts";

/**
 * "Join with a passkey", under the invitation's form (decision 054): the
 * browser's WebAuthn ceremony, so JavaScript only (the page says so when it
 * is off). Takes the name from the form's field (`nameFieldId`) and the link
 * from the page's address; asks /api/join-passkey for the options, the
 * browser for a new passkey, and the server to check it and make the member;
 * then a full load of their first tab, with the new session.
 */
export function JoinPasskey({ nameFieldId }: { nameFieldId: string }) {
  const T = JOIN_TEXT.passkey;
  const location = useLocation();
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const hintId = useId();

  async function join() {
    const field = document.getElementById(nameFieldId) as HTMLInputElement | null;
    const name = field?.value.trim() ?? "";
    if (name === "") {
      setState({ busy: false, error: T.nameFirst });
      field?.focus();
      return;
    }
    const token = new URLSearchParams(location.search).get("token") ?? "";
    setState({ busy: true });
    const fail = (error: string) => setState({ busy: false, error });
    const options = await postPasskeyStep<Parameters<typeof import("~/auth/passkey-client").createPasskeyInBrowser>[0]>("/api/join-passkey", {
      step: "options",
      token,
    });
    if (!options.ok) return fail(options.message);
    const { createPasskeyInBrowser } = await import("~/auth/passkey-client");
    const created = await createPasskeyInBrowser(options.value);
    if (!created.ok) return fail(created.message);
    const joined = await postPasskeyStep<{ redirect: string }>("/api/join-passkey", { step: "verify", token, name, response: created.response });
    if (!joined.ok) return fail(joined.message);
    window.location.assign(joined.value.redirect);
  }

  return (
    <PasskeyButton
      label={T.button}
      working={T.working}
      needsScript={T.needsScript}
      busy={state.busy}
      error={state.error}
      onPress={() => void join()}
      describedBy={hintId}
    >
      <p className="text-sm font-medium text-slate-800">{T.or}</p>
      <p id={hintId} className="mt-2 mb-3 text-sm text-slate-600">
        {T.hint}
      </p>
    </PasskeyButton>
  );
}
