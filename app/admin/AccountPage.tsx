import { Form } from "react-router";
import { PASSWORD_RULES } from "~/platform/password-rules";
import { ACCOUNT_TEXT } from "./account-texts";
import { AccountSessions } from "./AccountSessions";
import { AccountTwoStep } from "./AccountTwoStep";
import { NoticeRegion } from "./NoticeRegion";
import { ACCOUNT_PATH } from "./tabs";
import { Confirmation, ConfirmedForm } from "./ConfirmedForm";
import { PasskeyAdd } from "./PasskeyAdd";
import { BUTTON, DANGER_BUTTON, INPUT, QUIET_BUTTON, Section, type AccountResult, type AccountView } from "./account-ui";

/**
 * The member's account page. Every form is a plain POST to /admin/account
 * and works without JavaScript, but adding a passkey (the browser's
 * ceremony needs it, and says so when it is off).
 */
export function AccountPage({ view, result }: { view: AccountView; result: AccountResult }) {
  const noticeFor = (form: string) => (result?.form === form || (form === "page" && result?.form === undefined) ? result : undefined);
  const secondFactor = [
    <AccountTwoStep key="totp" view={view} notice={noticeFor("totp") ?? noticeFor("totp-manage")} recoveryCodes={result?.recoveryCodes} />,
    <PasskeysSection key="passkeys" view={view} notice={noticeFor("passkeys")} />,
  ];
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">{ACCOUNT_TEXT.title}</h2>
        <p className="mt-1 text-slate-700">{ACCOUNT_TEXT.intro}</p>
      </div>
      <NoticeRegion notice={noticeFor("page")?.notice} watch={result} />
      {view.mustSetUp ? (
        <div role="alert" className="rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-amber-950">
          <p className="font-semibold">{ACCOUNT_TEXT.required.title}</p>
          <p className="mt-1">{ACCOUNT_TEXT.required.body}</p>
        </div>
      ) : null}
      {view.mustSetUp ? secondFactor : null}
      <PasswordSection notice={noticeFor("password")} />
      {view.mustSetUp ? null : secondFactor}
      <AccountSessions sessions={view.sessions} notice={noticeFor("sessions")} />
      {view.policy ? <PolicySection required={view.policy.required} notice={noticeFor("policy")} /> : null}
    </div>
  );
}

function PasswordSection({ notice }: { notice: AccountResult }) {
  const T = ACCOUNT_TEXT.password;
  return (
    <Section id="password" title={T.title} notice={notice}>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="change-password" />
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <div>
          <label htmlFor="current-password" className="block text-sm font-medium text-slate-800">
            {T.current}
          </label>
          <input id="current-password" name="password" type="password" required autoComplete="current-password" className={INPUT} />
        </div>
        <div>
          <label htmlFor="new-password" className="block text-sm font-medium text-slate-800">
            {T.next}
          </label>
          <input
            id="new-password"
            name="newPassword"
            type="password"
            required
            minLength={PASSWORD_RULES.minLength}
            autoComplete="new-password"
            aria-describedby="new-password-hint"
            className={INPUT}
          />
          <p id="new-password-hint" className="mt-1 text-sm text-slate-600">
            {T.hint}
          </p>
        </div>
        <div>
          <label htmlFor="new-password-again" className="block text-sm font-medium text-slate-800">
            {T.again}
          </label>
          <input
            id="new-password-again"
            name="newPasswordAgain"
            type="password"
            required
            minLength={PASSWORD_RULES.minLength}
            autoComplete="new-password"
            className={INPUT}
          />
        </div>
        <button type="submit" className={BUTTON}>
          {T.submit}
        </button>
      </Form>
      <Form method="post" className="mt-6 border-t border-slate-200 pt-4">
        <input type="hidden" name="intent" value="email-password-link" />
        <p className="text-sm text-slate-700">{T.noCurrent}</p>
        <button type="submit" className={`mt-2 ${QUIET_BUTTON}`}>
          {T.emailLink}
        </button>
      </Form>
    </Section>
  );
}

function PasskeysSection({ view, notice }: { view: AccountView; notice: AccountResult }) {
  const T = ACCOUNT_TEXT.passkeys;
  return (
    <Section id="passkeys" title={T.title} notice={notice}>
      <p className="text-slate-700">{T.intro}</p>
      {view.passkeys.length === 0 ? (
        <p className="text-slate-700">{T.none}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200">
          {view.passkeys.map((passkey) => (
            <li key={passkey.id} className="space-y-3 p-4">
              <p className="font-semibold [overflow-wrap:anywhere] text-slate-900">{passkey.name}</p>
              <p className="text-sm text-slate-700">
                {T.created} {passkey.created} · {T.lastUsed} {passkey.lastUsed ?? T.never}
              </p>
              <div className="flex flex-wrap items-end gap-3">
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="passkey-rename" />
                  <input type="hidden" name="id" value={passkey.id} />
                  <div>
                    <label htmlFor={`rename-${passkey.id}`} className="block text-sm font-medium text-slate-800">
                      {T.renameLabel(passkey.name)}
                    </label>
                    <input id={`rename-${passkey.id}`} name="name" type="text" required maxLength={60} defaultValue={passkey.name} className={INPUT} />
                  </div>
                  <button type="submit" className={QUIET_BUTTON}>
                    {T.rename}
                  </button>
                </Form>
                <ConfirmedForm action={ACCOUNT_PATH} intent="passkey-remove" id={passkey.id} question={T.confirmRemove(passkey.name)}>
                  <button type="submit" aria-label={T.removeLabel(passkey.name)} className={DANGER_BUTTON}>
                    {T.remove}
                  </button>
                </ConfirmedForm>
              </div>
              {notice?.confirm === passkey.id ? (
                <Confirmation
                  action={ACCOUNT_PATH}
                  intent="passkey-remove"
                  id={passkey.id}
                  question={T.confirmRemove(passkey.name)}
                  button={T.removeLabel(passkey.name)}
                  cancel={{ to: `${ACCOUNT_PATH}#passkeys`, label: T.keep }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {view.passkeysUnavailable ? (
        <p role="note" className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {view.passkeysUnavailable}
        </p>
      ) : (
        <PasskeyAdd />
      )}
    </Section>
  );
}

function PolicySection({ required, notice }: { required: boolean; notice: AccountResult }) {
  const T = ACCOUNT_TEXT.policy;
  return (
    <Section id="policy" title={T.title} notice={notice}>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="second-factor-policy" />
        <div className="flex items-start gap-3">
          <input
            key={String(required)}
            id="second-factor-required"
            name="required"
            type="checkbox"
            value="yes"
            defaultChecked={required}
            aria-describedby="second-factor-hint"
            className="mt-1 size-5 rounded border-slate-500"
          />
          <div>
            <label htmlFor="second-factor-required" className="font-medium text-slate-900">
              {T.label}
            </label>
            <p id="second-factor-hint" className="text-sm text-slate-600">
              {T.hint}
            </p>
          </div>
        </div>
        <button type="submit" className={BUTTON}>
          {T.save}
        </button>
      </Form>
    </Section>
  );
}
