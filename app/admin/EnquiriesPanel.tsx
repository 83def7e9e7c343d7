import { useCallback, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Icon } from "~/components/Icon";
import { Spinner } from "~/components/Spinner";
import { INBOX_FILTERS, MAX_SEARCH_LENGTH, type InboxFilter } from "~/enquiries/inbox";
import { STATUS_LABELS, isEnquiryStatus } from "~/enquiries/pipeline";
import { isNarrowed, narrowingParams } from "~/enquiries/view";
import { HiddenParams, NarrowingFilters } from "./InboxNarrowing";
import { BulkBar } from "./BulkBar";
import { EnquiryCard } from "./EnquiryCard";
import { NoticeRegion, isFocusFallback } from "./NoticeRegion";
import { RowResults } from "./RowResults";
import { ENQUIRY_SETTINGS_PATH, tabPath } from "./tabs";
import { TabLinks } from "./Tabs";
import { INBOX_TEXT } from "./texts";
import type { AdminActionData, InboxView, ReplyingView } from "./types";

/** The chosen filter is outlined (4:1 against the bar, WCAG 1.4.11): its white alone is 1.2:1 against the bar. */
const FILTER_TAB = (selected: boolean) =>
  `rounded-lg px-4 py-2 text-sm font-medium transition-colors ${
    selected ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-500" : "text-slate-700 hover:bg-white/70 hover:text-slate-900"
  }`;

const LINK = "text-blue-800 underline underline-offset-2 hover:text-blue-950";
const SECONDARY_BUTTON =
  "inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50";

const BULK_FORM_ID = "inbox-bulk";

/** The Contact Submissions tab's own address; its forms post there (without an action, to the page they are on). */
const INBOX_PATH = tabPath("enquiries");

/** A view of the inbox as a URL: the filter, the search and the page are all in it, so each can be linked and reloaded. */
export function inboxHref(filter: InboxFilter, page = 1, search = "", extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filter !== "all") params.set("filter", filter);
  if (search !== "") params.set("q", search);
  if (page > 1) params.set("page", String(page));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return `${INBOX_PATH}${query ? `?${query}` : ""}`;
}

/** The CSV of the current filter, search, status, assignee and Due (built at /admin/enquiries.csv). */
function exportHref(filter: InboxFilter, search: string, narrow: Record<string, string>): string {
  const params = new URLSearchParams({ filter });
  if (search !== "") params.set("q", search);
  for (const [name, value] of Object.entries(narrow)) params.set(name, value);
  return `/admin/enquiries.csv?${params}`;
}

/**
 * The Contact Submissions tab: heading, Refresh, search, export, the filter
 * tabs with counts, the bulk bar and the cards.
 */
const NOT_REPLYING: ReplyingView = { mailOn: false, reasons: [], mayEditSettings: false };

export function EnquiriesPanel({
  view,
  replying = NOT_REPLYING,
  loading,
  companyName,
  retentionDays,
  actionData,
}: {
  view: InboxView;
  /** Replying from the dashboard (decision 059): e-mail on or off, the owner's reasons; absent while the tab loads (no cards). */
  replying?: ReplyingView;
  /** A navigation to this tab (another filter, Refresh) is under way. */
  loading: boolean;
  companyName: string;
  /** ENQUIRY_RETENTION_DAYS, when set. */
  retentionDays?: number;
  /** The action's answer when the page itself is that answer (no JavaScript). */
  actionData: AdminActionData | undefined;
}) {
  const { filter, search, narrowing } = view;
  // Every link of the view keeps the status, assignee and Due chosen.
  const narrowParams = narrowingParams(narrowing);
  const viewHref = (to: InboxFilter, toPage = 1, toSearch = search, extra: Record<string, string> = {}) =>
    inboxHref(to, toPage, toSearch, { ...narrowParams, ...extra });
  const page = view.status === "ok" ? view.page : 1;
  // A keyset page (decision 058) is its number and its cursor: this page's own address keeps both.
  const cursor = view.status === "ok" ? view.cursor : {};
  const counts = view.status === "ok" ? view.counts : undefined;
  const submissions = view.status === "ok" ? view.submissions : [];
  const pageIds = submissions.map((submission) => submission.id);

  // A notice belongs to the view it was given in: another filter, search or page starts clean.
  // (The panel itself stays mounted, so the focused filter tab keeps focus.)
  const viewKey = `${filter}:${search}:${new URLSearchParams(narrowParams)}:${page}:${cursor.after ?? ""}:${cursor.before ?? ""}`;
  const currentView = useRef(viewKey);
  currentView.current = viewKey;
  const [fetched, setFetched] = useState<{ viewKey: string; result: AdminActionData }>();
  const onResult = useCallback((result: AdminActionData) => setFetched({ viewKey: currentView.current, result }), []);
  const notice = (fetched?.viewKey === viewKey ? fetched.result : actionData)?.notice;

  // The ticked cards, per view; the server may tick them first (?select=all, or a bulk delete to confirm).
  const initialPicks = view.status === "ok" && view.selectAll ? pageIds : (actionData?.confirmBulkDelete ?? []);
  const [picks, setPicks] = useState<{ viewKey: string; ids: ReadonlySet<string> }>(() => ({ viewKey, ids: new Set(initialPicks) }));
  const picked = picks.viewKey === viewKey ? picks.ids : new Set(initialPicks);
  const selectedCount = pageIds.filter((id) => picked.has(id)).length;
  const pick = (ids: string[], selected: boolean) => {
    const next = new Set(picked);
    for (const id of ids) {
      if (selected) next.add(id);
      else next.delete(id);
    }
    setPicks({ viewKey, ids: next });
  };

  const onBulkResult = useCallback((result: AdminActionData, intent: string | undefined) => {
    if (intent === "bulk-delete" && result.notice?.kind === "success") {
      setPicks({ viewKey: currentView.current, ids: new Set() });
      // The bar stays but what it acted on is gone: let the notice take focus and say what happened.
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && focused.closest(`#${BULK_FORM_ID}`)) focused.blur();
    }
    setFetched({ viewKey: currentView.current, result });
  }, []);

  const here = viewHref(filter, page, search, cursor);

  // Another view's search (a tab, Clear search, Back) shows its own words; the
  // box is not remounted for it, so a search sent with Enter keeps its focus.
  const searchBox = useRef<HTMLInputElement>(null);
  const previousSearch = useRef(search);
  useEffect(() => {
    const cleared = previousSearch.current !== "" && search === "";
    previousSearch.current = search;
    if (!searchBox.current) return;
    if (searchBox.current.value !== search) searchBox.current.value = search;
    // "Clear search" goes with the search it clears: its focus goes to the (now empty) search box, not to the page's start.
    if (cleared && isFocusFallback(document.activeElement)) searchBox.current.focus();
  }, [search]);

  return (
    <section aria-labelledby="inbox-heading">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="inbox-heading" className="text-2xl font-bold text-slate-900">
            {INBOX_TEXT.heading}
          </h2>
          <p className="mt-1 text-slate-600">{INBOX_TEXT.subtitle}</p>
        </div>
        <Form method="get" action={INBOX_PATH} preventScrollReset>
          {filter !== "all" ? <input type="hidden" name="filter" value={filter} /> : null}
          {search !== "" ? <input type="hidden" name="q" value={search} /> : null}
          <HiddenParams params={narrowParams} />
          <button type="submit" className={SECONDARY_BUTTON}>
            <Icon name="refresh" className={`size-4 ${loading ? "animate-spin motion-reduce:animate-none" : ""}`} />
            {INBOX_TEXT.refresh}
          </button>
        </Form>
      </div>

      <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
        <Form method="get" action={INBOX_PATH} role="search" preventScrollReset className="flex w-full max-w-md flex-wrap items-end gap-2">
          {filter !== "all" ? <input type="hidden" name="filter" value={filter} /> : null}
          <HiddenParams params={narrowParams} />
          <div className="min-w-0 flex-1">
            <label htmlFor="inbox-search" className="block text-sm font-medium text-slate-800">
              {INBOX_TEXT.search.label}
            </label>
            <input
              ref={searchBox}
              id="inbox-search"
              type="search"
              name="q"
              defaultValue={search}
              maxLength={MAX_SEARCH_LENGTH}
              placeholder={INBOX_TEXT.search.hint}
              className="mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600"
            />
          </div>
          <button type="submit" className={SECONDARY_BUTTON}>
            {INBOX_TEXT.search.submit}
          </button>
        </Form>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {/* A file to save, not a page: a plain link, so the router does not try to render it. */}
          <a href={exportHref(filter, search, narrowParams)} download className={LINK}>
            {INBOX_TEXT.exportCsv}
          </a>
          <Link to="/admin/data-requests" className={LINK}>
            {INBOX_TEXT.dataRequests}
          </Link>
          {replying.mayEditSettings ? (
            <Link to={ENQUIRY_SETTINGS_PATH} className={LINK}>
              {INBOX_TEXT.replySettings}
            </Link>
          ) : null}
        </p>
      </div>
      {retentionDays !== undefined ? <p className="mt-3 text-sm text-slate-600">{INBOX_TEXT.retention(retentionDays)}</p> : null}

      <TabLinks
        label="Filter submissions"
        panelId="inbox-list"
        className="mt-6 inline-flex flex-wrap gap-1 rounded-xl bg-slate-200/70 p-1"
        tabClassName={FILTER_TAB}
        items={INBOX_FILTERS.map((value) => ({
          id: `inbox-filter-${value}`,
          // A search too common to count shows no numbers (decision 073); "–" when the inbox could not be read.
          label: view.status === "ok" && !counts ? INBOX_TEXT.filters[value] : `${INBOX_TEXT.filters[value]} (${counts?.[value] ?? "–"})`,
          to: viewHref(value),
          selected: value === filter,
        }))}
      />
      {view.status === "ok" ? (
        <NarrowingFilters
          action={INBOX_PATH}
          filter={filter}
          search={search}
          narrowing={narrowing}
          statusCounts={view.statusCounts}
          due={view.due}
          members={view.members}
          buttonClassName={SECONDARY_BUTTON}
        />
      ) : null}
      {search !== "" && submissions.length > 0 ? (
        <p className="mt-3 text-sm text-slate-700">
          {INBOX_TEXT.search.showing(search)} {view.status === "ok" && view.matchesOver !== undefined ? <>{INBOX_TEXT.search.many(view.matchesOver)} </> : null}
          <Link to={viewHref(filter, 1, "")} className={LINK}>
            {INBOX_TEXT.search.clear}
          </Link>
        </p>
      ) : null}

      <div id="inbox-list" role="tabpanel" aria-labelledby={`inbox-filter-${filter}`} aria-busy={loading} className="mt-6">
        <NoticeRegion notice={notice} watch={submissions} className="mb-4" />
        <RowResults kind="enquiry" onResult={onResult} />

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
          <EmptyInbox filter={filter} page={page} search={search} narrowParams={narrowParams} narrowed={isNarrowed(narrowing)} />
        ) : (
          <>
            <BulkBar
              formId={BULK_FORM_ID}
              spam={filter === "spam"}
              selectedCount={selectedCount}
              pageCount={pageIds.length}
              onSelectAll={(selected) => pick(pageIds, selected)}
              selectAllHref={viewHref(filter, page, search, { select: "all" })}
              onResult={onBulkResult}
            />
            {actionData?.confirmBulkDelete ? <BulkDeleteConfirmation ids={actionData.confirmBulkDelete} cancelHref={here} /> : null}
            <ul className="space-y-4">
              {submissions.map((submission) => (
                <EnquiryCard
                  key={submission.id}
                  submission={submission}
                  companyName={companyName}
                  members={view.members}
                  replying={replying}
                  confirmingDelete={actionData?.confirmDelete === submission.id}
                  askingReason={actionData?.askReason === submission.id}
                  cancelHref={here}
                  bulkFormId={BULK_FORM_ID}
                  selected={picked.has(submission.id)}
                  onSelectedChange={(selected) => pick([submission.id], selected)}
                />
              ))}
            </ul>
            {page > 1 || view.hasMore ? (
              <nav aria-label="Pages of submissions" className="mt-6 flex items-center justify-between gap-4">
                {page > 1 ? (
                  // Page 1 is always the newest: what arrived since counts there, not a page of 50 before this one.
                  <Link
                    to={page === 2 || !view.previousCursor ? viewHref(filter) : viewHref(filter, page - 1, search, { before: view.previousCursor })}
                    className={LINK}
                  >
                    ← {INBOX_TEXT.newer}
                  </Link>
                ) : (
                  <span />
                )}
                <span className="text-sm text-slate-600">{INBOX_TEXT.pageNumber(page)}</span>
                {view.hasMore && view.nextCursor ? (
                  <Link to={viewHref(filter, page + 1, search, { after: view.nextCursor })} className={LINK}>
                    {INBOX_TEXT.older} →
                  </Link>
                ) : (
                  <span />
                )}
              </nav>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

/** Without JavaScript, a bulk delete asks on the page first, as a card's Delete does (decision 009). */
function BulkDeleteConfirmation({ ids, cancelHref }: { ids: string[]; cancelHref: string }) {
  return (
    <div role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 p-4">
      <p className="text-sm text-red-900">{INBOX_TEXT.bulk.confirm(ids.length)}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <form method="post">
          <input type="hidden" name="intent" value="bulk-delete" />
          {ids.map((id) => (
            <input key={id} type="hidden" name="ids" value={id} />
          ))}
          <input type="hidden" name="confirmed" value="yes" />
          <button
            type="submit"
            className="inline-flex items-center gap-1.5 rounded-lg bg-red-700 px-3 py-2 text-sm font-medium text-white ring-1 ring-red-700 hover:bg-red-800"
          >
            {INBOX_TEXT.bulk.delete}
          </button>
        </form>
        <Link
          to={cancelHref}
          className="inline-flex items-center gap-1.5 rounded-lg bg-white px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"
        >
          Cancel
        </Link>
      </div>
    </div>
  );
}

function EmptyInbox({
  filter,
  page,
  search,
  narrowParams,
  narrowed,
}: {
  filter: InboxFilter;
  page: number;
  search: string;
  narrowParams: Record<string, string>;
  narrowed: boolean;
}) {
  if (search !== "") {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <p className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">{INBOX_TEXT.search.noMatch(search)}</p>
        <p className="mt-2 text-slate-600">{INBOX_TEXT.search.noMatchHint}</p>
        <p className="mt-2">
          <Link to={inboxHref(filter, 1, "", narrowParams)} className={LINK}>
            {INBOX_TEXT.search.clear}
          </Link>
        </p>
      </div>
    );
  }
  if (narrowed && page === 1) {
    const status = narrowParams.status;
    const only = Object.keys(narrowParams).length === 1 && status !== undefined && isEnquiryStatus(status);
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <p className="text-lg font-semibold text-slate-900">{only ? INBOX_TEXT.status.none(STATUS_LABELS[status]) : INBOX_TEXT.narrow.none}</p>
        <p className="mt-2">
          <Link to={inboxHref(filter)} className={LINK}>
            {only ? INBOX_TEXT.status.showAll : INBOX_TEXT.narrow.showAll}
          </Link>
        </p>
      </div>
    );
  }
  const text = INBOX_TEXT.empty[filter];
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <p className="text-lg font-semibold text-slate-900">{text.title}</p>
      <p className="mt-2 text-slate-600">
        {filter === "all" || filter === "spam" ? (
          text.hint
        ) : (
          <>
            {text.hint}{" "}
            <Link to={inboxHref("all")} className={LINK}>
              Show all submissions
            </Link>
          </>
        )}
      </p>
      {page > 1 ? (
        <p className="mt-2">
          <Link to={inboxHref(filter)} className={LINK}>
            Back to the newest
          </Link>
        </p>
      ) : null}
    </div>
  );
}
