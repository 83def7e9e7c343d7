import type { AdminSession } from "~/auth/sessions.server";
import type { MailHealth } from "~/enquiries/delivery";
import { mailHealth } from "~/enquiries/outbox.server";
import { siteLimitRefusals } from "~/enquiries/submit.server";
import type { Db } from "~/platform/db.server";
import { formatSubmittedAt } from "~/platform/dates";
import type { AppServices } from "~/services";
import type { SiteLimitNotice } from "./types";

/** What every dashboard tab shows around its panel: who is signed in, the sign-in note, the e-mail and limit banners. */
export async function dashboardBase(services: AppServices, admin: AdminSession) {
  const { db, company } = services;
  return {
    email: admin.email,
    signIns: {
      failed: admin.failedSignInsBefore,
      previousSignIn: admin.previousSignInAt === null ? undefined : formatSubmittedAt(admin.previousSignInAt),
    },
    company: { name: company.name, logoUrl: company.logoUrl },
    mail: await readMailHealth(db, services.mail !== undefined),
    siteLimit: await readSiteLimit(db, services),
  };
}

/** Enquiries CONTACT_SITE_LIMIT turned away lately, for a banner; a failure to read it only hides the banner. */
async function readSiteLimit(db: Db, services: AppServices): Promise<SiteLimitNotice | undefined> {
  try {
    const refusals = await siteLimitRefusals(db, services.clock.now());
    return refusals && { refused: refusals.count, limit: services.contact.siteLimit, last: formatSubmittedAt(refusals.last.toISOString()) };
  } catch (error) {
    console.error("Could not read the site-wide enquiry limit:", error);
    return undefined;
  }
}

/** For the banner; a failure to read it only hides the banner (the tab's own load says what is wrong). */
async function readMailHealth(db: Db, enabled: boolean): Promise<MailHealth | undefined> {
  try {
    return await mailHealth(db, enabled);
  } catch (error) {
    console.error("Could not read the e-mail outbox:", error);
    return undefined;
  }
}
