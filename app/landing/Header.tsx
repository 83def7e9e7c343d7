import { useEffect, useRef, useState } from "react";
import type { Company } from "~/company/company";
import { NAV_ITEMS } from "./content";
import { Icon } from "~/components/Icon";
import { CONTAINER } from "./ui";

const NAV_BUTTON = "rounded-lg px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-blue-800";
const NAV_BUTTON_HIGHLIGHTED = "ml-2 rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-blue-800";

/** The header is an island (islands.ts): it gets only the company fields it shows, as its props travel in the page. */
export function Header({ company }: { company: Pick<Company, "name" | "shortName" | "logoUrl"> }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    }
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: not an interaction but a watch on focus leaving the banner, which stays a landmark.
    <header
      // Focus leaving the header closes the menu: open, it would cover what Tab or Shift+Tab moves to (WCAG 2.4.11).
      onBlur={(event) => {
        if (menuOpen && !event.currentTarget.contains(event.relatedTarget as Node | null)) setMenuOpen(false);
      }}
      className="fixed inset-x-0 top-0 z-50 border-b border-slate-200 bg-white shadow-sm"
    >
      <div className={`${CONTAINER} flex h-16 items-center justify-between gap-4`}>
        <div className="flex min-w-0 items-center gap-3">
          <img src={company.logoUrl} alt={`${company.name} logo`} width={40} height={40} className="size-10 shrink-0 object-contain" />
          {/* The full name needs the room the desktop navigation leaves from lg up. */}
          <span className="truncate text-lg font-bold tracking-tight text-slate-900 lg:hidden">{company.shortName}</span>
          <span className="hidden truncate text-lg font-bold tracking-tight text-slate-900 lg:inline">{company.name}</span>
        </div>

        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.id}>
                <button type="button" data-scroll-to={item.id} className={item.id === "contact" ? NAV_BUTTON_HIGHLIGHTED : NAV_BUTTON}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>

        <button
          ref={toggleRef}
          type="button"
          aria-label={menuOpen ? "Close menu" : "Open menu"}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 md:hidden"
        >
          <Icon name={menuOpen ? "close" : "menu"} className="size-7" />
        </button>
      </div>

      <nav id="mobile-menu" aria-label="Main" hidden={!menuOpen} className="border-t border-slate-200 bg-white md:hidden">
        <ul className={`${CONTAINER} flex flex-col gap-1 py-3`}>
          {NAV_ITEMS.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                data-scroll-to={item.id}
                onClick={() => setMenuOpen(false)}
                className={
                  item.id === "contact"
                    ? "mt-2 w-full rounded-lg bg-blue-700 px-4 py-3 text-left text-base font-semibold text-white hover:bg-blue-800"
                    : "w-full rounded-lg px-4 py-3 text-left text-base font-medium text-slate-800 hover:bg-slate-100"
                }
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
