import { createContext } from "react-router";
import type { AdminSession } from "~/auth/sessions.server";
import type { Company } from "~/company/company";
import type { FormTokens } from "~/enquiries/form-token.server";
import type { OutboxSignal } from "~/enquiries/outbox.server";
import type { Clock } from "~/platform/clock.server";
import type { NotificationAddresses } from "~/platform/context";
import type { CookieSettings } from "~/platform/cookies.server";
import type { Db } from "~/platform/db.server";
import type { Transactions } from "~/platform/group-commit.server";
import type { Log } from "~/platform/log.server";
import type { Metrics } from "~/platform/metrics.server";
import type { Secrets } from "~/platform/secrets.server";
import type { ImageStorage } from "~/platform/storage.server";

/** What every loader and action gets from the server, created once at start-up by boot (boot.server.ts). */
export type AppServices = {
  db: Db;
  /** The public data's version, read as the cached pages read it on every request (data-version.server.ts). */
  publicVersion: () => Promise<number>;
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
  /** The one logger (decision 031). */
  log: Log;
  /** What GET /metrics reports; does nothing without METRICS_TOKEN. */
  metrics: Metrics;
  company: Company;
  /** PUBLIC_URL without its trailing slash; undefined: use the request's own origin (see siteUrl). */
  publicUrl: string | undefined;
  /** PUBLIC_IMAGES_URL (ending in "/"): the public pages link images there; undefined: `/images/<name>`. */
  publicImagesUrl: string | undefined;
  /** Who is e-mailed about enquiries; undefined when e-mail is off (no SMTP_URL). */
  mail: NotificationAddresses | undefined;
  contact: {
    /** CONTACT_RATE_LIMIT: enquiries per client IP per hour. */
    rateLimit: number;
    /** CONTACT_SITE_LIMIT: enquiries stored per hour from everyone together. */
    siteLimit: number;
    /** ENQUIRY_RETENTION_DAYS: undefined keeps enquiries until deleted. */
    retentionDays: number | undefined;
  };
  auth: {
    cookie: CookieSettings;
    /** LOGIN_RATE_LIMIT: failed sign-ins per client IP and e-mail in 15 minutes. */
    loginRateLimit: number;
  };
};

export const servicesContext = createContext<AppServices>();


/** The signed-in admin, set by the admin routes' layout before any of their loaders or actions runs. */
export const adminContext = createContext<AdminSession>();
