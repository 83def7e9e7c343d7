import { useEffect, useRef } from "react";
import type { Notice } from "./types";

/**
 * Where an admin action says how it went (decision 009): a polite live
 * region, `status` for success and `alert` for errors. When the element that
 * had focus is gone (a deleted card or row, one that left the filter), focus
 * moves here, to the words that say what happened, not to the page's start
 * (unless a component knows a better place: see `isFocusFallback`).
 */
export function NoticeRegion({
  notice,
  watch,
  className = "",
}: {
  notice: Notice | undefined;
  /** What, when it changes, may have removed the focused element (the list shown). */
  watch: unknown;
  className?: string;
}) {
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice && isFocusFallback(document.activeElement)) region.current?.focus();
  }, [notice, watch]);

  return (
    // A fallback: a component that knows a better place (a moved row's own button) may take focus from here.
    <div ref={region} tabIndex={-1} aria-live="polite" data-focus-fallback="" className={`empty:hidden ${className}`}>
      {notice ? (
        <p
          role={notice.kind === "error" ? "alert" : "status"}
          className={`rounded-lg border px-4 py-3 text-sm ${
            notice.kind === "error" ? "border-red-300 bg-red-50 text-red-800" : "border-green-300 bg-green-50 text-green-900"
          }`}
        >
          {notice.text}
        </p>
      ) : null}
    </div>
  );
}

/** True when focus is nowhere in particular: on the page itself, or parked on a notice. */
export function isFocusFallback(element: Element | null): boolean {
  return element === null || element === document.body || element.hasAttribute("data-focus-fallback");
}
