import { joinLimit } from "~/auth/join.server";
import { can } from "~/auth/roles";
import type { AdminSession } from "~/auth/sessions.server";
import type { Company } from "~/company/company";
import type { MailHealth } from "~/enquiries/delivery";
import { countDue, countSubmissions } from "~/enquiries/inbox.server";
import { mailHealth } from "~/enquiries/outbox.server";
import type { Clock } from "~/platform/fleet/clock.server";
import type { NotificationAddresses } from "~/platform/http/context";
import type { DatabaseHealth } from "~/platform/db/database-health.server";
import { formatSubmittedAt, londonDate } from "~/platform/dates";
import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import { readTally, type Tally } from "~/platform/limits/tally.server";
import { RESET_LIMITS } from "~/auth/password-reset.server";
import { publishedSite } from "~/website/website.server";
import { tabsAllowed } from "./tabs";
import type { DatabaseNotice, LimitsNotice } from "./types";

/** What the dashboard around the tabs reads: only these of the app's services. */
export type DashboardServices = {
  db: Db;
  company: Company;
  clock: Clock;
  log: Pick<Log, "error">;
  /** Set when notification e-mail is on. */
  mail: NotificationAddresses | undefined;
  tally: Pick<Tally, "flush">;
  databaseHealth: Pick<DatabaseHealth, "recent">;
  contact: { siteLimit: number; hardLimit: number; rateLimit: number };
  auth: { loginRateLimit: number };
};

/** The client money protection certificate lapses within this many days: the dashboard says so. */
export const CMP_WARNING_DAYS = 30;

export type CertificateNotice = { date: string; days: number };

/**
 * What every dashboard tab shows around its panel: who is signed in, the
 * sign-in note, the banners, the tabs of the member's role, and the unread
 * count on the Contact Submissions tab (undefined when it could not be read:
 * the tab's own load says what is wrong; or when the role has no such tab).
 */
export async function dashboardBase(services: DashboardServices, admin: AdminSession) {
  const { company } = services;
  return {
    email: admin.email,
    signIns: {
      failed: admin.failedSignInsBefore,
      previousSignIn: admin.previousSignInAt === null ? undefined : formatSubmittedAt(admin.previousSignInAt),
    },
    company: { name: company.name, logoUrl: company.logoUrl },
    mail: await readMailHealth(services),
    limits: await readLimits(services, can(admin.role, "team")),
    certificate: await readCertificate(services),
    database: databaseNotices(services),
    tabs: tabsAllowed((permission) => can(admin.role, permission)),
    ...(can(admin.role, "enquiries") ? await readInboxCounts(services) : {}),
  };
}

/** Unread enquiries, and those to follow up today or earlier (UK), for the header; neither when they could not be read. */
async function readInboxCounts(services: DashboardServices): Promise<{ unread?: number; due?: number }> {
  try {
    const [counts, due] = await Promise.all([countSubmissions(services.db), countDue(services.db, { filter: "all", dueBy: londonDate(services.clock.now()) })]);
    return { unread: counts.unread, due };
  } catch (error) {
    services.log.error({ err: error }, "Could not count the unread enquiries");
    return {};
  }
}

/** A full disk or a database that went away, while it lasts and for a day after. */
function databaseNotices(services: DashboardServices): DatabaseNotice[] {
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
async function readCertificate(services: DashboardServices): Promise<CertificateNotice | undefined> {
  const { content, degraded } = await publishedSite(services);
  const expires = content.legal.cmpExpires;
  if (degraded || !expires) return undefined;
  const today = services.clock.now().toISOString().slice(0, 10);
  const days = Math.round((Date.parse(`${expires}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (days > CMP_WARNING_DAYS) return undefined;
  const date = new Date(`${expires}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });
  return { date, days };
}

/** The limits protect the site but can catch a genuine person: what they held or turned away in the last day. */
const LIMITS_SHOWN_MS = 24 * 60 * 60 * 1000;

/** What the limits held or refused lately, for the banners; a failure to read it only hides them. */
async function readLimits(services: DashboardServices, owner: boolean): Promise<LimitsNotice | undefined> {
  const now = services.clock.now();
  try {
    // This instance's own refusals are written first, so the page is exact for them (others' lag by a few seconds).
    await services.tally.flush();
    const totals = await readTally(services.db, new Date(now.getTime() - LIMITS_SHOWN_MS));
    const lastOf = (...parts: Array<{ last: Date } | undefined>) =>
      formatSubmittedAt(new Date(Math.max(...parts.map((part) => part?.last.getTime() ?? 0))).toISOString());
    const { "contact-held": held, "contact-refused-ceiling": ceiling, "contact-refused-address": address } = totals;
    const { "sign-in-refused-busy": busy, "sign-in-refused-limit": limited, "join-refused-limit": joins, "password-reset-refused": resets } = totals;
    const { siteLimit, hardLimit, rateLimit } = services.contact;
    const notice: LimitsNotice = {
      ...(held && { held: { count: held.count, limit: siteLimit, last: lastOf(held) } }),
      ...((ceiling || address) && {
        refused: { ceiling: ceiling?.count ?? 0, hardLimit, address: address?.count ?? 0, rateLimit, last: lastOf(ceiling, address) },
      }),
      ...((busy || limited) && { signIns: { busy: busy?.count ?? 0, limited: limited?.count ?? 0, last: lastOf(busy, limited) } }),
      // Invitation links are an owner's business (the Team tab): the others are not shown what they cannot act on.
      ...(owner && joins && { joins: { limited: joins.count, limit: joinLimit(services.auth.loginRateLimit), last: lastOf(joins) } }),
      // Who cannot get a link is a member an owner helps from the shell: shown to owners.
      ...(owner && resets && { resets: { count: resets.count, ...RESET_LIMITS, last: lastOf(resets) } }),
    };
    return Object.keys(notice).length > 0 ? notice : undefined;
  } catch (error) {
    services.log.error({ err: error }, "Could not read what the limits held or refused");
    return undefined;
  }
}

/** For the banner; a failure to read it only hides the banner (the tab's own load says what is wrong). */
async function readMailHealth(services: DashboardServices): Promise<MailHealth | undefined> {
  try {
    return await mailHealth(services.db, services.mail !== undefined);
  } catch (error) {
    services.log.error({ err: error }, "Could not read the e-mail outbox");
    return undefined;
  }
}
