import { useEffect, useRef, type KeyboardEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useHydrated } from "./use-hydrated";

export type TabLinkItem = { id: string; label: string; to: string; selected: boolean };

/**
 * Tabs that are links: each tab is its own URL, so they work without
 * JavaScript, can be bookmarked and survive a reload. With JavaScript the
 * arrow keys, Home and End move between them as the ARIA tabs pattern asks,
 * and only the selected tab is in the Tab order; without it every tab is.
 */
export function TabLinks({
  label,
  items,
  panelId,
  className = "",
  tabClassName,
}: {
  label: string;
  items: TabLinkItem[];
  panelId: string;
  className?: string;
  tabClassName: (selected: boolean) => string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const list = useRef<HTMLDivElement>(null);
  const anySelected = items.some((item) => item.selected);

  // The dashboard's tabs share one layout, so the list normally stays; should a navigation draw it afresh, focus follows the arrow key there.
  const focusTab = (location.state as { focusTab?: unknown } | null)?.focusTab;
  useEffect(() => {
    if (typeof focusTab !== "string") return;
    const tab = list.current?.querySelector<HTMLAnchorElement>(`[role="tab"][id="${CSS.escape(focusTab)}"]`);
    if (tab && document.activeElement !== tab) tab.focus();
  }, [focusTab]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('[role="tab"]'));
    const current = tabs.indexOf(document.activeElement as HTMLAnchorElement);
    if (current === -1) return;
    const next =
      event.key === "ArrowRight"
        ? (current + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (current - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next]!;
    tab.focus();
    const item = items.find((candidate) => candidate.id === tab.id);
    if (item) void navigate(item.to, { preventScrollReset: true, state: { focusTab: item.id } });
  }

  return (
    <div ref={list} role="tablist" aria-label={label} className={className} onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <Link
          key={item.id}
          id={item.id}
          role="tab"
          to={item.to}
          aria-selected={item.selected}
          aria-controls={panelId}
          // With none selected (a page that is not a tab), the first is the one in the Tab order.
          tabIndex={hydrated && !item.selected && (anySelected || index > 0) ? -1 : undefined}
          preventScrollReset
          className={tabClassName(item.selected)}
        >
          {item.label}
        </Link>
      ))}
    </div>
  );
}
