import { Form } from "react-router";
import { ACCOUNT_TEXT } from "./account-texts";
import { DANGER_BUTTON, QUIET_BUTTON, Section, type AccountResult, type AccountView } from "./account-ui";

/** "Your sessions": every browser signed in to the member, with Sign out each and Sign out everywhere else. */
export function AccountSessions({ sessions, notice }: { sessions: AccountView["sessions"]; notice: AccountResult }) {
  const T = ACCOUNT_TEXT.sessions;
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Section id="sessions" title={T.title} notice={notice}>
      <p className="text-slate-700">{T.intro}</p>
      <ul className="divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200" data-testid="sessions">
        {sessions.map((session) => {
          const what = `${session.browser ?? T.unknownBrowser} on ${session.system ?? T.unknownSystem}`;
          return (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">
                  {what}
                  {session.current ? (
                    <span className="ml-2 rounded-full bg-blue-50 px-2 py-0.5 text-sm font-medium text-blue-900 ring-1 ring-blue-200">{T.thisBrowser}</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-700">
                  {T.address} {session.clientIp ?? T.unknownAddress} · {T.firstSeen} {session.firstSeen} · {T.lastSeen} {session.lastSeen}
                </p>
              </div>
              {session.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="id" value={session.id} />
                  <button type="submit" aria-label={T.signOutLabel(`${what}, last seen ${session.lastSeen}`)} className={QUIET_BUTTON}>
                    {T.signOut}
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-other-sessions" />
          <button type="submit" className={DANGER_BUTTON}>
            {T.signOutEverywhereElse}
          </button>
        </Form>
      ) : null}
    </Section>
  );
}
