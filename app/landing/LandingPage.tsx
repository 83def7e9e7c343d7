import type { Company } from "~/company/company";
import type { RenovationProject } from "~/projects/types";
import type { ContactActionData } from "~/enquiries/schema";

export type LandingPageProps = {
  company: Company;
  projects: Promise<RenovationProject[]>;
  contactResult: ContactActionData | undefined;
};

export function LandingPage({ company }: LandingPageProps) {
  return (
    <main>
      <h1>{company.name}</h1>
    </main>
  );
}
