import type { AdminSession } from "~/auth/sessions.server";
import type { MailHealth } from "~/enquiries/delivery";
import { mailHealth } from "~/enquiries/outbox.server";
import { siteLimitRefusals } from "~/enquiries/submit.server";
import type { Db } from "~/platform/db.server";
import { formatSubmittedAt } from "~/platform/dates";
import type { AppServices } from "~/services";
import { publishedSite } from "~/website/website.server";
import type { DatabaseNotice, SiteLimitNotice } from "./types";

/** The client money protection certificate lapses within this many days: the dashboard says so. */
export const CMP_WARNING_DAYS = 30;

export type CertificateNotice = { date: string; days: number };

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
    mail: await readMailHealth(services),
    siteLimit: await readSiteLimit(db, services),
    certificate: await readCertificate(services),
    database: databaseNotices(services),
  };
}

/** A full disk or a database that went away, while it lasts and for a day after. */
function databaseNotices(services: AppServices): DatabaseNotice[] {
  const at = (date: Date) => formatSubmittedAt(date.toISOString());
  return services.databaseHealth.recent(new Date()).map((fault) => ({
    kind: fault.kind,
    since: at(fault.since),
    until: fault.until && at(fault.until),
    failures: fault.failures,
    detail: fault.detail,
  }));
}

/** The published client money protection certificate's expiry, from 30 days before it (a failure to read it hides the note). */
async function readCertificate(services: AppServices): Promise<CertificateNotice | undefined> {
  const { content, degraded } = await publishedSite(services);
  const expires = content.legal.cmpExpires;
  if (degraded || !expires) return undefined;
  const today = services.clock.now().toISOString().slice(0, 10);
  const days = Math.round((Date.parse(`${expires}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (days > CMP_WARNING_DAYS) return undefined;
  const date = new Date(`${expires}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });
  return { date, days };
}

/** Enquiries CONTACT_SITE_LIMIT turned away lately, for a banner; a failure to read it only hides the banner. */
async function readSiteLimit(db: Db, services: AppServices): Promise<SiteLimitNotice | undefined> {
  try {
    const refusals = await siteLimitRefusals(db, services.clock.now());
    return refusals && { refused: refusals.count, limit: services.contact.siteLimit, last: formatSubmittedAt(refusals.last.toISOString()) };
  } catch (error) {
    services.log.error({ err: error }, "Could not read the site-wide enquiry limit");
    return undefined;
  }
}

/** For the banner; a failure to read it only hides the banner (the tab's own load says what is wrong). */
async function readMailHealth(services: AppServices): Promise<MailHealth | undefined> {
  try {
    return await mailHealth(services.db, services.mail !== undefined);
  } catch (error) {
    services.log.error({ err: error }, "Could not read the e-mail outbox");
    return undefined;
  }
}
