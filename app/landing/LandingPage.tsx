import type { Company } from "~/company/company";
import type { ContactActionData } from "~/enquiries/schema";
import type { RenovationProject } from "~/projects/types";
import type { SiteContent } from "~/website/content";
import type { HeroPicture } from "~/website/sections/hero";
import { About } from "./About";
import { Contact } from "./Contact";
import { Footer } from "./Footer";
import { SignInCheck } from "~/components/SignInCheck";
import { Header } from "./Header";
import { Hero } from "./Hero";
import { Pricing } from "./Pricing";
import { Renovations } from "./Renovations";
import { Services } from "./Services";

export type LandingPageProps = {
  company: Company;
  /** The published (or, in a preview, the draft's) texts and prices. */
  site: SiteContent;
  /** The uploaded hero image; undefined shows the built-in illustration. */
  heroImage: HeroPicture | undefined;
  projects: Promise<RenovationProject[]>;
  contactResult: ContactActionData | undefined;
  /** The contact form's time-trap token (form-token.server.ts). */
  formToken: string;
  /** ENQUIRY_RETENTION_DAYS, for the privacy notice under the form. */
  retentionDays: number | undefined;
};

/** The public one-page site (SPEC §2): header, six sections, footer. */
export function LandingPage({ company, site, heroImage, projects, contactResult, formToken, retentionDays }: LandingPageProps) {
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-lg bg-white font-semibold text-blue-800 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:px-4 focus:py-2"
      >
        Skip to main content
      </a>
      <Header company={company} />
      <main id="main" tabIndex={-1}>
        <Hero hero={site.hero} image={heroImage} valuationLink={site.valuation.link} />
        <Services services={site.services} />
        <Renovations projects={projects} texts={site.renovations} />
        <Pricing pricing={site.pricing} fees={site.fees} valuationLink={site.valuation.link} />
        <About company={company} about={site.about} />
        <Contact
          company={company}
          initialResult={contactResult}
          formToken={formToken}
          retentionDays={retentionDays}
          privacyHref={site.policies.privacy ? "/privacy" : undefined}
          texts={site.contact}
          hours={site.hours}
        />
      </main>
      <Footer company={company} site={site} />
      {/* Shown by enhance.client.ts when the footer's Admin link is followed. */}
      <SignInCheck id="checking-sign-in" hidden />
    </>
  );
}
