import { createContext, type RouterContextProvider } from "react-router";
import { memberActor, type MemberActor } from "~/audit/actor";
import { requireRole } from "~/auth/require-role.server";
import type { Permission } from "~/auth/roles";
import type { AdminSession } from "~/auth/sessions.server";
import { requestContext } from "~/platform/http/context";
import type { Company } from "~/company/company";
import type { FormTokens } from "~/enquiries/form-token.server";
import type { OutboxSignal } from "~/enquiries/outbox.server";
import type { Clock } from "~/platform/fleet/clock.server";
import type { NotificationAddresses } from "~/platform/http/context";
import type { CookieSettings } from "~/platform/http/cookies.server";
import type { DatabaseHealth } from "~/platform/db/database-health.server";
import type { Db } from "~/platform/db/db.server";
import type { Transactions } from "~/platform/db/group-commit.server";
import type { SnapshotReads } from "~/platform/db/snapshot-read.server";
import type { Log } from "~/platform/observe/log.server";
import type { Metrics } from "~/platform/observe/metrics.server";
import type { RefusalMemory } from "~/platform/limits/rate-limit.server";
import type { Secrets } from "~/platform/db/secrets.server";
import type { Tally } from "~/platform/limits/tally.server";
import type { ImageStorage } from "~/platform/storage/storage.server";

/** What every loader and action gets from the server, created once at start-up by boot (boot.server.ts). */
export type AppServices = {
  db: Db;
  /** The public data's version, read as the cached pages read it on every request (data-version.server.ts). */
  publicVersion: () => Promise<number>;
  /** Long reads from one snapshot of the database, off the connection the requests share (snapshot-read.server.ts): the CSV export. */
  snapshots: SnapshotReads;
  /** Transactions whose commits are shared by the writes that arrive together (group-commit.server.ts). */
  transactions: Transactions;
  /** Signing keys every instance on the database shares. */
  secrets: Secrets;
  /** The contact form's time-trap tokens. */
  formTokens: FormTokens;
  /** Wakes this process's e-mail worker. */
  outbox: OutboxSignal;
  /** The database's clock, for times several instances compare (clock.server.ts). */
  clock: Clock;
  /** The images bucket. */
  storage: ImageStorage;
  /** A database that went away, a full disk: what this process saw lately, for the dashboard. */
  databaseHealth: DatabaseHealth;
  /** The one logger (decision 031). */
  log: Log;
  /** What GET /metrics reports; does nothing without METRICS_TOKEN. */
  metrics: Metrics;
  company: Company;
  /** What the limits held or refused, counted for the dashboard without a row per request. */
  tally: Tally;
  /** Limits that refused lately: refused again from memory until a place frees up. */
  refusals: RefusalMemory;
  /** PUBLIC_URL without its trailing slash; undefined: use the request's own origin (see siteUrl). */
  publicUrl: string | undefined;
  /** PUBLIC_IMAGES_URL (ending in "/"): the public pages link images there; undefined: `/images/<name>`. */
  publicImagesUrl: string | undefined;
  /** Who is e-mailed about enquiries; undefined when e-mail is off (no SMTP_URL). */
  mail: NotificationAddresses | undefined;
  contact: {
    /** CONTACT_RATE_LIMIT: enquiries per client IP per hour. */
    rateLimit: number;
    /** CONTACT_SITE_LIMIT: enquiries per hour from everyone together with an e-mail each; the rest are held (a flood). */
    siteLimit: number;
    /** CONTACT_HARD_LIMIT: enquiries per hour from everyone together; the rest are refused. */
    hardLimit: number;
    /** ENQUIRY_RETENTION_DAYS: undefined keeps enquiries until deleted. */
    retentionDays: number | undefined;
  };
  auth: {
    cookie: CookieSettings;
    /** LOGIN_RATE_LIMIT: failed sign-ins per client IP and e-mail in 15 minutes. */
    loginRateLimit: number;
    /** AUDIT_RETENTION_DAYS: how long the audit log keeps an entry (its view says so). */
    auditRetentionDays: number;
  };
};

export const servicesContext = createContext<AppServices>();

/** The signed-in admin, set by the admin routes' layout before any of their loaders or actions runs. */
export const adminContext = createContext<AdminSession>();

/**
 * The top of an admin loader or action: the signed-in member (the layout
 * checked the session), refused with 403 unless their role allows
 * `permission` (app/auth/roles.ts), and the Actor their changes are audited as.
 */
export function requireMember(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  permission: Permission,
): { admin: AdminSession; actor: MemberActor } {
  const admin = context.get(adminContext);
  const info = context.get(requestContext);
  requireRole(admin, permission, { request, refused: info.refused });
  return { admin, actor: memberActor(admin, info.clientIp) };
}
