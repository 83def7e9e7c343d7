import { Link } from "react-router";
import type { Company } from "~/company/company";
import type { SectionId } from "./scroll";
import { CONTAINER } from "./ui";

const QUICK_LINKS: { id: SectionId; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "services", label: "Services" },
  { id: "renovations", label: "Renovations" },
  { id: "about", label: "About" },
];

/** Placeholders until the documents exist: shown as link text with nowhere to go. */
const POLICY_LINKS = ["Privacy Policy", "Terms of Service", "Cookie Policy"] as const;

const FOOTER_LINK = "text-slate-300 transition-colors hover:text-white focus-visible:outline-blue-300";

export function Footer({ company }: { company: Company }) {
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className={`${CONTAINER} py-16`}>
        <div className="grid gap-12 md:grid-cols-2 lg:grid-cols-4">
          <div className="lg:col-span-2">
            <div className="flex items-center gap-3">
              <img src={company.logoUrl} alt="" width={40} height={40} className="size-10" />
              <p className="text-lg font-bold text-white">{company.name}</p>
            </div>
            <p className="mt-4 max-w-md leading-7">
              Professional property management for landlords, property investors and tenants. Rent, repairs,
              compliance and renovations, handled.
            </p>
          </div>

          <nav aria-labelledby="footer-quick-links">
            <h2 id="footer-quick-links" className="text-sm font-semibold tracking-wider text-white uppercase">
              Quick Links
            </h2>
            <ul className="mt-4 space-y-3">
              {QUICK_LINKS.map((link) => (
                <li key={link.id}>
                  <a
                    href={`#${link.id}`}
                    data-scroll-to={link.id}
                    className={FOOTER_LINK}
                  >
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
              {POLICY_LINKS.map((label) => (
                <li key={label}>
                  <a className="text-slate-300">{label}</a>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="mt-12 border-t border-slate-800 pt-8 text-sm text-slate-400">
          <p>
            © {new Date().getFullYear()} {company.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
