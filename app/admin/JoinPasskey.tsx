import { useId, useState } from "react";
import { useLocation } from "react-router";
import { Spinner } from "~/components/Spinner";
import { postPasskeyStep } from "./passkey-fetch";
import { JOIN_TEXT } from "./team-texts";
import { useHydrated } from "./use-hydrated";

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
  const hydrated = useHydrated();
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
    <div className="mt-6 border-t border-slate-200 pt-6">
      <p className="text-sm font-medium text-slate-800">{T.or}</p>
      <noscript>
        <p className="mt-3 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">{T.needsScript}</p>
      </noscript>
      <p id={hintId} className="mt-2 text-sm text-slate-600">
        {T.hint}
      </p>
      <button
        type="button"
        onClick={() => void join()}
        disabled={!hydrated || state.busy}
        aria-describedby={hintId}
        className="mt-3 flex w-full items-center justify-center gap-2 rounded-lg bg-white px-4 py-3 font-semibold text-slate-900 shadow-sm ring-1 ring-slate-400 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-70"
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
