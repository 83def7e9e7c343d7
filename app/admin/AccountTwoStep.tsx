import { Form } from "react-router";
import { ACCOUNT_TEXT } from "./account-texts";
import { BUTTON, DANGER_BUTTON, INPUT, IdentityFields, QUIET_BUTTON, Section, type AccountResult, type AccountView } from "./account-ui";

/**
 * Two-step sign-in with an authenticator app: set up (the QR code drawn on
 * the server as SVG, the key as text, a code to confirm), the recovery codes
 * shown once, new codes, and turning it off. All plain forms.
 */
export function AccountTwoStep({ view, notice, recoveryCodes }: { view: AccountView; notice: AccountResult; recoveryCodes: string[] | undefined }) {
  const T = ACCOUNT_TEXT.twoStep;
  const { on, since, recoveryCodesLeft, setup } = view.twoStep;
  return (
    <Section id="two-step" title={T.title} notice={notice}>
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      <p className="text-slate-700">{on ? T.on(since ?? "", recoveryCodesLeft) : T.off}</p>
      {setup ? (
        <div className="space-y-4 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
          <p className="font-medium text-slate-900">{T.scan}</p>
          {/* Drawn by the server (qrcode, from our own otpauth:// URI): an SVG with role="img" and a label. */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: SVG the server drew from our own otpauth:// URI (qrcode), no visitor's text in it. */}
          <div className="w-56 max-w-full bg-white" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
          <div>
            <p className="text-slate-800">{T.typeIn}</p>
            <p className="mt-1 font-mono text-lg tracking-wider [overflow-wrap:anywhere] text-slate-900" data-testid="totp-secret">
              {setup.secretText}
            </p>
            <p className="mt-2 text-sm">
              <a href={setup.uri} className="text-blue-800 underline underline-offset-2 hover:text-blue-950">
                {T.uriLabel}
              </a>
            </p>
          </div>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="totp-confirm" />
            <div>
              <label htmlFor="totp-code" className="block text-sm font-medium text-slate-800">
                {T.confirmCode}
              </label>
              <input
                id="totp-code"
                name="code"
                type="text"
                inputMode="numeric"
                pattern="[0-9 ]*"
                required
                autoComplete="one-time-code"
                className={`${INPUT} max-w-48`}
              />
            </div>
            <div className="flex flex-wrap gap-3">
              <button type="submit" className={BUTTON}>
                {T.confirm}
              </button>
            </div>
          </Form>
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="totp-start" />
              <button type="submit" className={QUIET_BUTTON}>
                {T.restart}
              </button>
            </Form>
            {on ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="totp-cancel" />
                <button type="submit" className={QUIET_BUTTON}>
                  {T.cancel}
                </button>
              </Form>
            )}
          </div>
        </div>
      ) : on ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="totp-start" />
          <button type="submit" className={BUTTON}>
            {T.start}
          </button>
        </Form>
      )}
      {on ? (
        <Form method="post" className="space-y-3 rounded-lg p-4 ring-1 ring-slate-200">
          <h3 className="font-semibold text-slate-900">{T.turnOffTitle}</h3>
          <IdentityFields idPrefix="totp-manage" withCode />
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="recovery-codes" className={QUIET_BUTTON}>
              {T.regenerate}
            </button>
            <button type="submit" name="intent" value="totp-off" className={DANGER_BUTTON}>
              {T.turnOff}
            </button>
          </div>
        </Form>
      ) : null}
    </Section>
  );
}

/** The ten codes, on this answer only: a plain list, and the same as a text file to download (a data: link, no script). */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const T = ACCOUNT_TEXT.codes;
  const file = `${T.listLabel}\n\n${codes.join("\n")}\n`;
  return (
    <section aria-labelledby="recovery-codes-title" className="rounded-xl border-2 border-amber-600 bg-amber-50 p-4 text-amber-950">
      <h3 id="recovery-codes-title" className="font-bold">
        {T.title}
      </h3>
      <p className="mt-1">{T.body}</p>
      <ol aria-label={T.listLabel} className="mt-3 grid gap-1 font-mono text-base sm:grid-cols-2" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <p className="mt-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
          download="recovery-codes.txt"
          className="font-semibold text-blue-900 underline underline-offset-2 hover:text-blue-950"
        >
          {T.download}
        </a>
      </p>
    </section>
  );
}
