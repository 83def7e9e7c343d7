import type { ReactNode } from "react";
import { ACCOUNT_TEXT } from "./account-texts";
import { NoticeRegion } from "./NoticeRegion";

/*
 * What the account page's parts share (AccountPage, AccountTwoStep,
 * AccountSessions, PasskeyAdd): its view, a form's answer, the styles of its
 * fields and buttons, a section's card and the fields that ask who you are.
 */

/** What the account page shows (routes/admin/account/view.server.ts), dates already in words. */
export type AccountView = {
  email: string;
  /** The owners require a second factor and this member has none: the set-up comes first. */
  mustSetUp: boolean;
  twoStep: { on: boolean; since: string | null; recoveryCodesLeft: number; setup: { qrSvg: string; secretText: string; uri: string } | undefined };
  passkeys: Array<{ id: string; name: string; created: string; lastUsed: string | null }>;
  /** Why passkeys cannot be added at this address (a bare IP, plain http://); undefined when they can. */
  passkeysUnavailable: string | undefined;
  sessions: Array<{
    id: string;
    browser: string | null;
    system: string | null;
    clientIp: string | null;
    firstSeen: string;
    lastSeen: string;
    current: boolean;
  }>;
  /** An owner's: whether the whole team must have a second factor. */
  policy: { required: boolean } | undefined;
};

export type AccountResult = { notice: { kind: "success" | "error"; text: string }; form?: string; recoveryCodes?: string[]; confirm?: string } | undefined;

export const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";
export const BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-wait disabled:bg-blue-700/80";
export const QUIET_BUTTON = "rounded-lg bg-white px-3 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-400 hover:bg-slate-50";
export const DANGER_BUTTON = "rounded-lg bg-white px-3 py-2 text-sm font-medium text-red-800 shadow-sm ring-1 ring-red-400 hover:bg-red-50";

/** A card of the page: a heading, the notice of its own forms, and what it holds. */
export function Section({ id, title, notice, children }: { id: string; title: string; notice?: AccountResult; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id={`${id}-title`} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      <NoticeRegion notice={notice?.notice.text ? notice.notice : undefined} watch={notice} className="mt-3" />
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/** Fields asking who you are before a change that weakens a way in: the password, or a code. */
export function IdentityFields({ idPrefix, withCode }: { idPrefix: string; withCode: boolean }) {
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-password`} className="block text-sm font-medium text-slate-800">
          {ACCOUNT_TEXT.identity.password}
        </label>
        <input id={`${idPrefix}-password`} name="password" type="password" autoComplete="current-password" className={INPUT} />
      </div>
      {withCode ? (
        <div>
          <label htmlFor={`${idPrefix}-code`} className="block text-sm font-medium text-slate-800">
            {ACCOUNT_TEXT.identity.code}
          </label>
          <input id={`${idPrefix}-code`} name="code" type="text" autoComplete="one-time-code" spellCheck={false} className={INPUT} />
        </div>
      ) : null}
    </>
  );
}
