import type { ReactNode } from "react";
import { Link, useLocation, useNavigation } from "react-router";
import { AdminHeader } from "./AdminHeader";
import { EnquiriesPanel, inboxHref } from "./EnquiriesPanel";
import { TabLinks } from "./Tabs";
import type { MailHealth } from "~/enquiries/delivery";
import { parseInboxFilter, parseSearch } from "~/enquiries/inbox";
import { parseNarrowing } from "~/enquiries/view";
import { Icon } from "~/components/Icon";
import { DASHBOARD_TEXT, MAIL_TEXT, WEBSITE_TEXT_ADMIN } from "./texts";
import { DatabaseBanner } from "./DatabaseBanner";
import { LimitsNotices } from "./LimitsNotices";
import { ADMIN_TABS, tabOfPath, tabPath, type AdminTabId } from "./tabs";
import type { DatabaseNotice, LimitsNotice } from "./types";
import { useSlowTab } from "./use-slow-tab";

/** Failed sign-ins on the account between the admin's last sign-in and this session's. */
export type SignInNotice = { failed: number; previousSignIn: string | undefined };

export type DashboardProps = {
  email: string;
  signIns?: SignInNotice;
  company: { name: string; logoUrl: string };
  /** The tabs of the member's role (app/admin/tabs.ts); all of them when not given. */
  tabs?: readonly AdminTabId[];
  /** Unread submissions, shown on the Contact Submissions tab whichever tab is open. */
  unread?: number;
  /** Enquiries to follow up today or earlier (issue 22), shown beside them. */
  due?: number;
  /** How notification e-mail stands; undefined when it could not be read. */
  mail?: MailHealth;
  /** What the limits held or turned away lately; undefined when nothing. */
  limits?: LimitsNotice;
  /** The client money protection certificate lapses soon, or has. */
  certificate?: { date: string; days: number };
  /** A full disk or a database that went away, lately. */
  database?: DatabaseNotice[];
  /** The open tab's panel (its route, in an Outlet). */
  children?: ReactNode;
};

const MAIN_TAB = (selected: boolean) =>
  `-mb-px border-b-2 px-4 py-3 text-sm font-semibold transition-colors sm:text-base ${
    selected ? "border-blue-700 text-blue-800" : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900"
  }`;

/**
 * What a tab shows while its data is slow to come, when the specification
 * gives it words (Contact Submissions: "Loading contact submissions..."); a
 * tab without one keeps the open panel until its own arrives.
 */
const LOADING_PANELS: Partial<Record<AdminTabId, (search: URLSearchParams, companyName: string) => ReactNode>> = {
  enquiries: (search, companyName) => (
    <EnquiriesPanel
      view={{
        status: "error",
        filter: parseInboxFilter(search.get("filter")),
        search: parseSearch(search.get("q")),
        narrowing: parseNarrowing(search),
      }}
      loading
      companyName={companyName}
      actionData={undefined}
    />
  ),
};

/** The dashboard around the open tab: header, banners, the tab list, and the tab's panel. */
export function Dashboard({ email, signIns, company, tabs, unread, due, mail, limits, certificate, database, children }: DashboardProps) {
  const location = useLocation();
  const navigation = useNavigation();
  // A page under the dashboard that is not a tab (/admin/account) selects none.
  const openTab = tabOfPath(location.pathname);
  // Another tab on its way, slowly: it is selected at once and shows its loading panel, if it has one.
  const slowTab = useSlowTab();
  const loadingPanel = slowTab !== undefined && slowTab !== openTab ? LOADING_PANELS[slowTab] : undefined;
  const shownTab = loadingPanel ? slowTab! : openTab;

  return (
    <div className="min-h-dvh bg-slate-100">
      <AdminHeader email={email} logoUrl={company.logoUrl}>
        {unread ? (
          <Link
            to={inboxHref("unread")}
            className="inline-flex items-center gap-2 rounded-full bg-blue-50 px-3 py-1 text-sm font-medium text-blue-900 ring-1 ring-blue-200 hover:bg-blue-100"
          >
            <span aria-hidden="true" className="size-2 rounded-full bg-blue-700" />
            {unread} unread {unread === 1 ? "enquiry" : "enquiries"}
          </Link>
        ) : null}
        {due ? (
          <Link
            to={inboxHref("all", 1, "", { due: "1" })}
            className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-sm font-medium text-amber-950 ring-1 ring-amber-300 hover:bg-amber-100"
          >
            <span aria-hidden="true" className="size-2 rounded-full bg-amber-600" />
            {DASHBOARD_TEXT.due(due)}
          </Link>
        ) : null}
      </AdminHeader>

      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="sr-only">{DASHBOARD_TEXT.title}</h1>
        {database?.map((notice) => (
          <DatabaseBanner key={notice.kind} notice={notice} />
        ))}
        {signIns && signIns.failed > 0 ? <FailedSignInsNote notice={signIns} /> : null}
        {mail ? <MailBanner mail={mail} /> : null}
        {certificate ? (
          <div
            role={certificate.days < 0 ? "alert" : undefined}
            className={`mb-6 flex gap-3 rounded-xl border-2 px-4 py-3 sm:px-5 ${certificate.days < 0 ? "border-red-700 bg-red-50 text-red-950" : "border-amber-600 bg-amber-50 text-amber-950"}`}
          >
            <Icon name="exclamation" className={`mt-0.5 size-6 shrink-0 ${certificate.days < 0 ? "text-red-700" : "text-amber-700"}`} />
            <p className="min-w-0">
              {WEBSITE_TEXT_ADMIN.cmpExpiring(certificate.date, certificate.days)}{" "}
              <Link to={`${tabPath("website")}?section=legal`} className="font-semibold underline underline-offset-2">
                {WEBSITE_TEXT_ADMIN.tab}
              </Link>
            </p>
          </div>
        ) : null}
        {limits ? <LimitsNotices limits={limits} /> : null}
        <TabLinks
          label={DASHBOARD_TEXT.title}
          panelId="dashboard-panel"
          className="flex flex-wrap gap-x-2 border-b border-slate-300"
          tabClassName={MAIN_TAB}
          items={ADMIN_TABS.filter((tab) => tabs === undefined || tabs.includes(tab.id)).map((tab) => ({
            id: `tab-${tab.id}`,
            label: tab.label,
            to: tabPath(tab.id),
            selected: tab.id === shownTab,
          }))}
        />
        <div id="dashboard-panel" {...(shownTab ? { role: "tabpanel", "aria-labelledby": `tab-${shownTab}` } : {})} className="pt-8">
          {loadingPanel ? loadingPanel(new URLSearchParams(navigation.location?.search), company.name) : children}
        </div>
      </main>
    </div>
  );
}

/** Someone tried the account's password: the admin is told once signed in, for the whole session. */
function FailedSignInsNote({ notice }: { notice: SignInNotice }) {
  return (
    <div className="mb-6 flex gap-3 rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-amber-950 sm:px-5">
      <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-amber-700" />
      <p className="min-w-0">
        <strong className="font-semibold">{DASHBOARD_TEXT.failedSignIns(notice.failed, notice.previousSignIn)}</strong> {DASHBOARD_TEXT.failedSignInsHint}
      </p>
    </div>
  );
}

/**
 * E-mail that fails must be impossible to miss (issue 5): a red alert on
 * both tabs while notifications are failing, and another while replies to
 * visitors are (a visitor waits for an answer the team thinks was sent).
 * E-mail turned off is a choice, so it gets a quiet note.
 */
function MailBanner({ mail }: { mail: MailHealth }) {
  if (!mail.enabled) {
    return (
      <p className="mb-6 flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
        <Icon name="envelope" className="size-4 shrink-0 text-slate-500" />
        {MAIL_TEXT.off}
      </p>
    );
  }
  return (
    <>
      {mail.failing > 0 ? (
        <FailingMailAlert
          title={MAIL_TEXT.failingTitle}
          what={MAIL_TEXT.failing(mail.failing)}
          error={mail.lastError}
          where={MAIL_TEXT.stillHere(mail.failing)}
        />
      ) : null}
      {mail.failingReplies > 0 ? (
        <FailingMailAlert
          title={MAIL_TEXT.repliesFailingTitle}
          what={MAIL_TEXT.repliesFailing(mail.failingReplies)}
          error={mail.replyLastError}
          where={MAIL_TEXT.repliesWhere(mail.failingReplies)}
        />
      ) : null}
    </>
  );
}

function FailingMailAlert({ title, what, error, where }: { title: string; what: string; error: string | null; where: string }) {
  const reason = error?.trim();
  return (
    <div role="alert" className="mb-6 flex gap-3 rounded-xl border-2 border-red-700 bg-red-50 px-4 py-4 text-red-950 sm:px-5">
      <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-red-700" />
      <p className="min-w-0 [overflow-wrap:anywhere]">
        <strong className="font-semibold">{title}:</strong> {what} {reason ? `${MAIL_TEXT.lastError(reason)}${/[.!?]$/.test(reason) ? "" : "."} ` : null}
        {where}{" "}
        <Link to={inboxHref("all")} className="font-semibold underline underline-offset-2 hover:text-red-800">
          {DASHBOARD_TEXT.contactsTab}
        </Link>
        {MAIL_TEXT.retried}
      </p>
    </div>
  );
}
