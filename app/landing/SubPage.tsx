import type { ReactNode } from "react";
import type { Company } from "~/company/company";
import type { SiteContent } from "~/website/content";
import { Footer } from "./Footer";
import { CONTAINER } from "./ui";

/**
 * A public page beside the landing page (/fees, the policies, /valuation):
 * the company's name back to /, the page's own heading and text, the same
 * footer. No JavaScript but an island's (the valuation form's).
 */
export function SubPage({
  company,
  site,
  title,
  intro,
  children,
}: {
  company: Company;
  site: SiteContent;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-lg bg-white font-semibold text-blue-800 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:px-4 focus:py-2"
      >
        Skip to main content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className={`${CONTAINER} flex h-16 items-center gap-3`}>
          <a href="/" className="flex min-w-0 items-center gap-3 rounded-lg text-slate-900 hover:text-blue-800">
            <img src={company.logoUrl} alt="" width={40} height={40} className="size-10 shrink-0 object-contain" />
            <span className="truncate text-lg font-bold tracking-tight">{company.name}</span>
            <span className="sr-only">: home page</span>
          </a>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="bg-white py-12 sm:py-16">
        <div className={`${CONTAINER} max-w-4xl`}>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          {intro ? <div className="mt-4 text-lg leading-8 text-slate-700">{intro}</div> : null}
          <div className="mt-10">{children}</div>
        </div>
      </main>
      <Footer company={company} site={site} onLanding={false} />
    </>
  );
}
