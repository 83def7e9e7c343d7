import { Link } from "react-router";
import type { Company } from "~/company/company";
import type { SiteContent } from "~/website/content";
import { hasFees } from "~/website/sections/fees";
import { certificateLinkText } from "~/website/sections/legal";
import { POLICIES } from "~/website/sections/policies";
import type { SectionId } from "./scroll";
import { logoSrc } from "./logo";
import { CONTAINER } from "./ui";

const QUICK_LINKS: { id: SectionId; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "services", label: "Services" },
  { id: "renovations", label: "Renovations" },
  { id: "about", label: "About" },
];

const FOOTER_LINK = "text-slate-300 transition-colors hover:text-white focus-visible:outline-blue-300";

/** Companies House numbers start SC in Scotland and NI in Northern Ireland; the rest are England and Wales. */
function registeredIn(companyNumber: string): string {
  if (companyNumber.startsWith("SC")) return "Scotland";
  if (companyNumber.startsWith("NI")) return "Northern Ireland";
  return "England and Wales";
}

/** What a UK letting agent must show: its registration, redress scheme and client money protection. */
function legalLines(company: Company, site: SiteContent): string[] {
  const { legal } = site;
  const lines: string[] = [];
  if (legal.registeredName || legal.companyNumber) {
    lines.push(
      [
        legal.registeredName || company.name,
        legal.companyNumber ? `registered in ${registeredIn(legal.companyNumber)}, company number ${legal.companyNumber}` : "",
        legal.registeredOffice ? `registered office ${legal.registeredOffice}` : "",
      ]
        .filter(Boolean)
        .join(", ") + ".",
    );
  }
  if (legal.vatNumber) lines.push(`VAT number ${legal.vatNumber}.`);
  if (legal.redressScheme) lines.push(`Member of ${legal.redressScheme}${legal.redressNumber ? ` (membership number ${legal.redressNumber})` : ""}.`);
  if (legal.cmpScheme) lines.push(`Client money protection: ${legal.cmpScheme}${legal.cmpNumber ? ` (membership number ${legal.cmpNumber})` : ""}.`);
  if (legal.icoNumber) lines.push(`Registered with the Information Commissioner's Office, number ${legal.icoNumber}.`);
  return lines;
}

export function Footer({
  company,
  site,
  onLanding = true,
}: {
  company: Company;
  site: SiteContent /** False on /fees and the policies: the quick links go back to the landing page. */;
  onLanding?: boolean;
}) {
  const legal = legalLines(company, site);
  const feesListed = hasFees(site.fees);
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className={`${CONTAINER} py-16`}>
        <div className="grid gap-12 md:grid-cols-2 lg:grid-cols-4">
          <div className="lg:col-span-2">
            <div className="flex items-center gap-3">
              <img src={logoSrc(company.logoUrl)} alt="" width={40} height={40} className="size-10 object-contain" />
              <p className="text-lg font-bold text-white">{company.name}</p>
            </div>
            <p className="mt-4 max-w-md leading-7">
              Professional property management for landlords, property investors and tenants. Rent, repairs, compliance and renovations, handled.
            </p>
          </div>

          <nav aria-labelledby="footer-quick-links">
            <h2 id="footer-quick-links" className="text-sm font-semibold tracking-wider text-white uppercase">
              Quick Links
            </h2>
            <ul className="mt-4 space-y-3">
              {QUICK_LINKS.map((link) => (
                <li key={link.id}>
                  <a href={onLanding ? `#${link.id}` : `/#${link.id}`} data-scroll-to={onLanding ? link.id : undefined} className={FOOTER_LINK}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>

          <div>
            <h2 className="text-sm font-semibold tracking-wider text-white uppercase">Company</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to="/admin" title="Admin Dashboard" className={FOOTER_LINK}>
                  Admin
                </Link>
              </li>
              {feesListed ? (
                <li>
                  <a href="/fees" className={FOOTER_LINK}>
                    Fees
                  </a>
                </li>
              ) : null}
              {POLICIES.map(({ key, path, title }) => (
                <li key={key}>
                  {/* A placeholder with nowhere to go (as the specification has it) until the company writes the policy. */}
                  {site.policies[key] ? (
                    <a href={path} className={FOOTER_LINK}>
                      {title}
                    </a>
                  ) : (
                    // biome-ignore lint/a11y/useValidAnchor: an <a> without href is HTML's placeholder link, which the specification asks for.
                    <a className="text-slate-300">{title}</a>
                  )}
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="mt-12 space-y-2 border-t border-slate-800 pt-8 text-sm text-slate-400">
          {legal.map((line) => (
            <p key={line}>{line}</p>
          ))}
          {site.legal.cmpCertificate ? (
            <p>
              <a href={site.legal.cmpCertificate} className="text-slate-300 underline underline-offset-2 hover:text-white focus-visible:outline-blue-300">
                {certificateLinkText(site.legal.cmpCertificate)}
              </a>
            </p>
          ) : null}
          <p>
            © {new Date().getFullYear()} {company.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
