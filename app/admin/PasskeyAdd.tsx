import { useId, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { Spinner } from "~/components/Spinner";
import { ACCOUNT_TEXT } from "./account-texts";
import { BUTTON, INPUT } from "./account-ui";
import { postPasskeyStep } from "./passkey-fetch";
import { useHydrated } from "./use-hydrated";

/**
 * "Add a passkey": the browser's WebAuthn ceremony, so JavaScript only (the
 * page says so when it is off). Asks /api/admin/passkeys for the options,
 * the browser for a new passkey (passkey-client.ts, loaded on the press),
 * and the server to check and keep it; then the page reads its list again.
 */
export function PasskeyAdd() {
  const T = ACCOUNT_TEXT.passkeys;
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [state, setState] = useState<{ busy: boolean; notice?: { kind: "success" | "error"; text: string } }>({ busy: false });
  const noticeId = useId();

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setState({ busy: true });
    const fail = (text: string) => setState({ busy: false, notice: { kind: "error", text } });
    const options = await postPasskeyStep<Parameters<typeof import("~/auth/passkey-client").createPasskeyInBrowser>[0]>("/api/admin/passkeys", {
      step: "options",
    });
    if (!options.ok) return fail(options.message);
    const { createPasskeyInBrowser } = await import("~/auth/passkey-client");
    const created = await createPasskeyInBrowser(options.value);
    if (!created.ok) return fail(created.message);
    const saved = await postPasskeyStep<{ message: string }>("/api/admin/passkeys", { step: "verify", response: created.response, name });
    if (!saved.ok) return fail(saved.message);
    setState({ busy: false, notice: { kind: "success", text: saved.value.message } });
    await revalidator.revalidate();
  }

  return (
    <form onSubmit={add} className="space-y-3 rounded-lg p-4 ring-1 ring-slate-200" aria-describedby={state.notice ? noticeId : undefined}>
      <noscript>
        <p className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">{T.needsScript}</p>
      </noscript>
      <div>
        <label htmlFor="passkey-name" className="block text-sm font-medium text-slate-800">
          {T.name}
        </label>
        <input id="passkey-name" name="name" type="text" maxLength={60} placeholder={T.namePlaceholder} className={`${INPUT} max-w-sm`} />
      </div>
      <button type="submit" disabled={!hydrated || state.busy} className={BUTTON}>
        {state.busy ? <Spinner className="size-4" /> : null}
        {state.busy ? T.adding : T.add}
      </button>
      <div aria-live="polite">
        {state.notice ? (
          <p
            id={noticeId}
            role={state.notice.kind === "error" ? "alert" : "status"}
            className={`rounded-lg border px-4 py-3 text-sm ${
              state.notice.kind === "error" ? "border-red-300 bg-red-50 text-red-800" : "border-green-300 bg-green-50 text-green-900"
            }`}
          >
            {state.notice.text}
          </p>
        ) : null}
      </div>
    </form>
  );
}
