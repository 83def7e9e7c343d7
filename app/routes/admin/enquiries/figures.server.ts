import { can, type Role } from "~/auth/roles";
import { teamFigures } from "~/enquiries/figures.server";
import type { PeriodView } from "~/enquiries/figures";
import type { AppServices } from "~/services";
import { publishedSite } from "~/website/website.server";

/**
 * The tab's "How the team is doing" (decision 060): this week's and last
 * week's figures in the published business hours. Read apart from the inbox:
 * when they cannot be read the inbox still shows, and the panel says so.
 */
export async function readTeamFigures(
  services: Pick<AppServices, "db" | "company" | "log">,
  role: Role,
): Promise<{ weeks: PeriodView[] | undefined; canExport: boolean }> {
  const canExport = can(role, "enquiries-export");
  try {
    const site = await publishedSite(services);
    return { weeks: (await teamFigures(services.db, site.content.hours.days)).weeks, canExport };
  } catch (error) {
    services.log.error({ err: error }, "Could not read the enquiry figures");
    return { weeks: undefined, canExport };
  }
}
