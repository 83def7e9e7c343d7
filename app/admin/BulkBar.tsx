import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { useHydrated } from "./use-hydrated";
import { INBOX_TEXT } from "./texts";
import type { AdminActionData } from "./types";

const TEXT = INBOX_TEXT.bulk;

/** The bar's buttons; under Spam only Delete selected makes sense. */
const ACTIONS = [
  { intent: "bulk-mark-read", label: TEXT.markRead, className: "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50" },
  { intent: "bulk-mark-unread", label: TEXT.markUnread, className: "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50" },
  { intent: "bulk-delete", label: TEXT.delete, className: "bg-white text-red-800 ring-red-300 hover:bg-red-50" },
] as const;

const BAR_BUTTON =
  "inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium ring-1 transition-colors aria-disabled:cursor-not-allowed aria-disabled:opacity-60";

/**
 * Acts on the ticked cards: their checkboxes join this form through its id
 * (`form` attribute), because each card holds forms of its own and forms
 * cannot nest. Without JavaScript it is a plain form post, and "Select all on
 * this page" a link that comes back with every box ticked.
 */
export function BulkBar({
  formId,
  spam,
  selectedCount,
  pageCount,
  onSelectAll,
  selectAllHref,
  onResult,
}: {
  formId: string;
  /** Under Spam only Delete selected makes sense. */
  spam: boolean;
  selectedCount: number;
  /** Cards on this page. */
  pageCount: number;
  onSelectAll: (selected: boolean) => void;
  selectAllHref: string;
  onResult: (result: AdminActionData, intent: string | undefined) => void;
}) {
  const fetcher = useFetcher<AdminActionData>();
  const hydrated = useHydrated();
  const sentIntent = useRef<string>(undefined);
  const selectAll = useRef<HTMLInputElement>(null);
  const none = hydrated && selectedCount === 0;

  useEffect(() => {
    if (fetcher.data) onResult(fetcher.data, sentIntent.current);
  }, [fetcher.data, onResult]);

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selectedCount > 0 && selectedCount < pageCount;
  }, [selectedCount, pageCount]);

  return (
    <fetcher.Form
      id={formId}
      method="post"
      aria-label={TEXT.label}
      onSubmit={(event) => {
        const intent = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
        // Nothing ticked: the buttons say so (aria-disabled) and send nothing.
        if (selectedCount === 0) event.preventDefault();
        // Asks with the browser's own dialog, as a card's Delete does; without JavaScript the page asks.
        else if (intent === "bulk-delete" && !window.confirm(TEXT.confirm(selectedCount))) event.preventDefault();
        else sentIntent.current = intent;
      }}
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-3 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200"
    >
      {hydrated ? (
        <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            ref={selectAll}
            type="checkbox"
            checked={pageCount > 0 && selectedCount === pageCount}
            onChange={(event) => onSelectAll(event.currentTarget.checked)}
            className="size-5 accent-blue-700"
          />
          {TEXT.selectAll}
        </label>
      ) : (
        <Link to={selectAllHref} preventScrollReset className="text-sm font-medium text-blue-800 underline underline-offset-2">
          {TEXT.selectAll}
        </Link>
      )}
      <span aria-live="polite" aria-atomic="true" className="text-sm text-slate-700">
        {hydrated ? TEXT.selected(selectedCount) : null}
      </span>
      {/* Only once the confirm() above can run: a page without JavaScript asks on the page first. */}
      {hydrated ? <input type="hidden" name="confirmed" value="yes" /> : null}
      <div className="flex flex-wrap gap-2 sm:ml-auto">
        {(spam ? ACTIONS.filter((action) => action.intent === "bulk-delete") : ACTIONS).map((action) => (
          <button
            key={action.intent}
            type="submit"
            name="intent"
            value={action.intent}
            aria-disabled={none || undefined}
            className={`${BAR_BUTTON} ${action.className}`}
          >
            {action.label}
          </button>
        ))}
      </div>
    </fetcher.Form>
  );
}
