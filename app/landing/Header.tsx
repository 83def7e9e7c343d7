import type { Company } from "~/company/company";
import { NAV_ITEMS } from "./content";
import { Icon } from "~/components/Icon";
import { logoSrc } from "./logo";
import { CONTAINER } from "./ui";

const NAV_BUTTON = "rounded-lg px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-blue-800";
const NAV_BUTTON_HIGHLIGHTED = "ml-2 rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-blue-800";

/**
 * The site's header. Not an island (decision 072): its one interactive part, the mobile
 * menu, is served by the page's own listener (`enhanceMobileMenu`, enhance.client.ts),
 * so a phone opens it without loading React. Without JavaScript it stays closed, as before.
 */
export function Header({ company }: { company: Pick<Company, "name" | "shortName" | "logoUrl"> }) {
  return (
    <header className="fixed inset-x-0 top-0 z-50 border-b border-slate-200 bg-white shadow-sm">
      <div className={`${CONTAINER} flex h-16 items-center justify-between gap-4`}>
        <div className="flex min-w-0 items-center gap-3">
          <img src={logoSrc(company.logoUrl)} alt={`${company.name} logo`} width={40} height={40} className="size-10 shrink-0 object-contain" />
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
          type="button"
          aria-label="Open menu"
          aria-expanded="false"
          aria-controls="mobile-menu"
          data-menu-toggle=""
          className="group inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 md:hidden"
        >
          <Icon name="menu" className="size-7 group-aria-expanded:hidden" />
          <Icon name="close" className="hidden size-7 group-aria-expanded:block" />
        </button>
      </div>

      <nav id="mobile-menu" aria-label="Main" hidden className="border-t border-slate-200 bg-white md:hidden">
        <ul className={`${CONTAINER} flex flex-col gap-1 py-3`}>
          {NAV_ITEMS.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                data-scroll-to={item.id}
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
