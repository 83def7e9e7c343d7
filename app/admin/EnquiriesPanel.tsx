import { useCallback, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Icon } from "~/components/Icon";
import { Spinner } from "~/components/Spinner";
import { INBOX_FILTERS, type InboxFilter } from "~/enquiries/inbox";
import { EnquiryCard } from "./EnquiryCard";
import { NoticeRegion } from "./NoticeRegion";
import { TabLinks } from "./Tabs";
import { INBOX_TEXT } from "./texts";
import type { AdminActionData, InboxView } from "./types";

const FILTER_TAB = (selected: boolean) =>
  `rounded-lg px-4 py-2 text-sm font-medium transition-colors ${
    selected ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200" : "text-slate-700 hover:bg-white/70 hover:text-slate-900"
  }`;

export function inboxHref(filter: InboxFilter, page = 1): string {
  const params = new URLSearchParams({ tab: "contacts" });
  if (filter !== "all") params.set("filter", filter);
  if (page > 1) params.set("page", String(page));
  return `/admin?${params}`;
}

/** The Contact Submissions tab: heading, Refresh, filter tabs with counts, the cards. */
export function EnquiriesPanel({
  view,
  loading,
  companyName,
  actionData,
}: {
  view: InboxView;
  /** A navigation to this tab (another filter, Refresh) is under way. */
  loading: boolean;
  companyName: string;
  /** The action's answer when the page itself is that answer (no JavaScript). */
  actionData: AdminActionData | undefined;
}) {
  const filter = view.filter;
  // A notice belongs to the view it was given in: another filter or page starts clean.
  // (The panel itself stays mounted, so the focused filter tab keeps focus.)
  const viewKey = `${filter}:${view.status === "ok" ? view.page : 0}`;
  const currentView = useRef(viewKey);
  currentView.current = viewKey;
  const [fetched, setFetched] = useState<{ viewKey: string; result: AdminActionData }>();
  const onResult = useCallback((result: AdminActionData) => setFetched({ viewKey: currentView.current, result }), []);
  const notice = (fetched?.viewKey === viewKey ? fetched.result : actionData)?.notice;
  const counts = view.status === "ok" ? view.counts : undefined;
  const submissions = view.status === "ok" ? view.submissions : [];

  return (
    <section aria-labelledby="inbox-heading">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="inbox-heading" className="text-2xl font-bold text-slate-900">
            {INBOX_TEXT.heading}
          </h2>
          <p className="mt-1 text-slate-600">{INBOX_TEXT.subtitle}</p>
        </div>
        <Form method="get" action="/admin" preventScrollReset>
          <input type="hidden" name="tab" value="contacts" />
          {filter !== "all" ? <input type="hidden" name="filter" value={filter} /> : null}
          <button
            type="submit"
            className="inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
          >
            <Icon name="refresh" className={`size-4 ${loading ? "animate-spin motion-reduce:animate-none" : ""}`} />
            {INBOX_TEXT.refresh}
          </button>
        </Form>
      </div>

      <TabLinks
        label="Filter submissions"
        panelId="inbox-list"
        className="mt-6 inline-flex flex-wrap gap-1 rounded-xl bg-slate-200/70 p-1"
        tabClassName={FILTER_TAB}
        items={INBOX_FILTERS.map((value) => ({
          id: `inbox-filter-${value}`,
          label: `${INBOX_TEXT.filters[value]} (${counts?.[value] ?? "–"})`,
          to: inboxHref(value),
          selected: value === filter,
        }))}
      />

      <div id="inbox-list" role="tabpanel" aria-labelledby={`inbox-filter-${filter}`} aria-busy={loading} className="mt-6">
        <NoticeRegion notice={notice} watch={submissions} className="mb-4" />

        {loading ? (
          <p role="status" className="flex items-center gap-3 py-12 text-slate-700">
            <Spinner className="size-5" />
            {INBOX_TEXT.loading}
          </p>
        ) : view.status === "error" ? (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
            {INBOX_TEXT.loadFailure}
          </p>
        ) : submissions.length === 0 ? (
          <EmptyInbox filter={filter} page={view.page} />
        ) : (
          <>
            <ul className="space-y-4">
              {submissions.map((submission) => (
                <EnquiryCard
                  key={submission.id}
                  submission={submission}
                  companyName={companyName}
                  confirmingDelete={actionData?.confirmDelete === submission.id}
                  cancelHref={inboxHref(filter, view.page)}
                  onResult={onResult}
                />
              ))}
            </ul>
            {view.page > 1 || view.hasMore ? (
              <nav aria-label="Pages of submissions" className="mt-6 flex justify-between gap-4">
                {view.page > 1 ? (
                  <Link to={inboxHref(filter, view.page - 1)} className="text-blue-800 underline underline-offset-2">
                    ← {INBOX_TEXT.newer}
                  </Link>
                ) : (
                  <span />
                )}
                {view.hasMore ? (
                  <Link to={inboxHref(filter, view.page + 1)} className="text-blue-800 underline underline-offset-2">
                    {INBOX_TEXT.older} →
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

function EmptyInbox({ filter, page }: { filter: InboxFilter; page: number }) {
  const text = INBOX_TEXT.empty[filter];
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <p className="text-lg font-semibold text-slate-900">{text.title}</p>
      <p className="mt-2 text-slate-600">
        {filter === "all" ? (
          text.hint
        ) : (
          <>
            {text.hint}{" "}
            <Link to={inboxHref("all")} className="text-blue-800 underline underline-offset-2">
              Show all submissions
            </Link>
          </>
        )}
      </p>
      {page > 1 ? (
        <p className="mt-2">
          <Link to={inboxHref(filter)} className="text-blue-800 underline underline-offset-2">
            Back to the newest
          </Link>
        </p>
      ) : null}
    </div>
  );
}
