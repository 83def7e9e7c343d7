import path from "node:path";
import { z } from "zod";
import type { LogLevel } from "../observe/log.server";
import type { MailConfig } from "../mail/mailer.server";
import type { S3Config } from "../storage/s3-storage.server";
import { DEFAULT_CONTACT_HARD_LIMIT, backupKeySetting, S3_DETAILS, SECRET_VARIABLES, envSchema, parseTrustProxy, type TrustProxy } from "./settings.server";

/**
 * The one place that reads process.env. Everything else receives the parsed,
 * typed result, so a bad value stops the start with a message naming the
 * variable instead of failing later in some request. The settings and their
 * rules are in settings.server.ts.
 */
export type Env = {
  mode: "production" | "development" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** ADMIN_EMAIL + ADMIN_PASSWORD: the admin to create at start if missing. */
  initialAdmin: { email: string; password: string } | undefined;
  /** Failed sign-ins allowed per client IP and e-mail in 15 minutes. */
  loginRateLimit: number;
  /** Enquiries accepted per client IP per hour (spam included). */
  contactRateLimit: number;
  /** Enquiries per hour from all clients together (spam included) beyond which the rest are held in a flood. */
  contactSiteLimit: number;
  /** Enquiries per hour from all clients together beyond which the rest are refused (429); at least contactSiteLimit. */
  contactHardLimit: number;
  /** Enquiries older than this many days are deleted daily; undefined keeps them. */
  enquiryRetentionDays: number | undefined;
  /** AUDIT_RETENTION_DAYS: audit log entries older than this are deleted daily (default 365). */
  auditRetentionDays: number;
  /** E-mail, when SMTP_URL is set; undefined: enquiries are only stored. */
  mail: MailConfig | undefined;
  trustProxy: TrustProxy;
  /** PUBLIC_URL without its trailing slash; undefined: each request's own origin. */
  publicUrl: string | undefined;
  /** S3_*: the images bucket in object storage; undefined: images on disk in DATA_DIR/images. */
  s3: S3Config | undefined;
  /** PUBLIC_IMAGES_URL (ending in "/"): pages link images there by name; undefined: at /images/<name>. */
  publicImagesUrl: string | undefined;
  /**
   * SHUTDOWN_DRAIN_MS: after SIGTERM, how long the server keeps answering
   * (with /readyz at 503) so load balancers stop sending it requests first;
   * only when something asked /readyz within this time (server/shutdown.ts).
   */
  shutdownDrainMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive connection stays open; above the balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  /** DATABASE_POOL_MAX, DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS (PostgreSQL). */
  databasePool: DatabasePoolSettings;
  /** LOG_LEVEL: the least severe level logged (info: one line per request). */
  logLevel: LogLevel;
  /** METRICS_TOKEN: GET /metrics answers with it as a bearer token; undefined: no /metrics. */
  metricsToken: string | undefined;
  /** COMPANY_*: what the operator set; the company module fills in the rest (company/company.ts). */
  company: CompanyOverrides;
  /** BACKUP_KEY's 32 bytes: backups are sealed with it, and checked and restored only with it; undefined: backups as they are. */
  backupKey: Uint8Array | undefined;
};

export type DatabasePoolSettings = {
  /** Connections one instance opens at most. */
  max: number;
  /** How long a query waits for a connection (a new one, or a free one of a full pool) before the request is answered 503. */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer than this. */
  statementTimeoutMs: number;
};

export type CompanyOverrides = {
  name?: string | undefined;
  shortName?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  address?: string | undefined;
  logoUrl?: string | undefined;
};

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const result = envSchema.safeParse(cleaned, {
    // One parse per process: zod's compiled fast path would cost more to build than it saves (decision 080).
    jitless: true,
  });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const raw = source[name];
      // Never echo a connection string: it may hold a password.
      const shown = raw === undefined || SECRET_VARIABLES.has(name) ? "" : ` (got ${JSON.stringify(raw)})`;
      return `  ${name}: ${issue.message}${shown}`;
    });
    throw new EnvError(`Invalid environment variables:\n${problems.join("\n")}`);
  }
  const env = result.data;
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    throw new EnvError("Invalid environment variables:\n  ADMIN_EMAIL, ADMIN_PASSWORD: set both (to create that admin at start) or neither");
  }
  if (env.SMTP_URL !== undefined && (env.MAIL_FROM === undefined || env.CONTACT_NOTIFY_TO === undefined)) {
    throw new EnvError(
      "Invalid environment variables:\n  MAIL_FROM, CONTACT_NOTIFY_TO: set both when SMTP_URL is set (who sends, and who is told of each enquiry)",
    );
  }
  if (env.CONTACT_HARD_LIMIT !== undefined && env.CONTACT_HARD_LIMIT < env.CONTACT_SITE_LIMIT) {
    throw new EnvError(
      `Invalid environment variables:\n  CONTACT_HARD_LIMIT: must be at least CONTACT_SITE_LIMIT (${env.CONTACT_SITE_LIMIT}): enquiries between the two are held, not refused (got ${JSON.stringify(source.CONTACT_HARD_LIMIT)})`,
    );
  }
  if (env.S3_BUCKET === undefined) {
    const stray = S3_DETAILS.filter((name) => env[name] !== undefined);
    if (stray.length > 0) {
      throw new EnvError(`Invalid environment variables:\n  ${stray.join(", ")}: set S3_BUCKET too (images stay on disk without it)`);
    }
  }
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new EnvError(
      "Invalid environment variables:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither (then the AWS SDK's own credentials are used)",
    );
  }
  return {
    mode: env.NODE_ENV,
    port: env.PORT,
    // `npm run dev` serves this machine only, unless HOST says otherwise: a
    // development server (source maps, hot reload) is no site for the network.
    host: env.HOST ?? (env.NODE_ENV === "development" ? "127.0.0.1" : "0.0.0.0"),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    initialAdmin: env.ADMIN_EMAIL !== undefined && env.ADMIN_PASSWORD !== undefined ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    loginRateLimit: env.LOGIN_RATE_LIMIT,
    contactRateLimit: env.CONTACT_RATE_LIMIT,
    contactSiteLimit: env.CONTACT_SITE_LIMIT,
    // Far above any real company's traffic; never below the site-wide limit it stands over.
    contactHardLimit: env.CONTACT_HARD_LIMIT ?? Math.max(DEFAULT_CONTACT_HARD_LIMIT, env.CONTACT_SITE_LIMIT),
    enquiryRetentionDays: env.ENQUIRY_RETENTION_DAYS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    mail:
      env.SMTP_URL !== undefined && env.MAIL_FROM !== undefined && env.CONTACT_NOTIFY_TO !== undefined
        ? {
            smtpUrl: env.SMTP_URL,
            from: env.MAIL_FROM,
            notifyTo: env.CONTACT_NOTIFY_TO.split(",").map((address) => address.trim()),
            insecure: env.SMTP_INSECURE ?? false,
          }
        : undefined,
    trustProxy: env.TRUST_PROXY === undefined ? false : parseTrustProxy(env.TRUST_PROXY)!,
    publicUrl: env.PUBLIC_URL,
    s3:
      env.S3_BUCKET === undefined
        ? undefined
        : {
            bucket: env.S3_BUCKET,
            endpoint: env.S3_ENDPOINT,
            region: env.S3_REGION ?? "us-east-1",
            credentials:
              env.S3_ACCESS_KEY_ID !== undefined && env.S3_SECRET_ACCESS_KEY !== undefined
                ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
          },
    publicImagesUrl: env.PUBLIC_IMAGES_URL,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    databasePool: {
      max: env.DATABASE_POOL_MAX,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    logLevel: env.LOG_LEVEL ?? "info",
    metricsToken: env.METRICS_TOKEN,
    company: {
      name: env.COMPANY_NAME,
      shortName: env.COMPANY_SHORT_NAME,
      phone: env.COMPANY_PHONE,
      email: env.COMPANY_EMAIL,
      address: env.COMPANY_ADDRESS,
      logoUrl: env.COMPANY_LOGO_URL,
    },
    backupKey: env.BACKUP_KEY,
  };
}

export function loadEnv(): Env {
  return parseEnv(process.env);
}

/** BACKUP_KEY alone, for `verify-backup`, which needs no other setting. */
export function loadBackupKey(): Uint8Array | undefined {
  const result = z.object({ BACKUP_KEY: backupKeySetting }).safeParse({ BACKUP_KEY: process.env.BACKUP_KEY });
  if (!result.success) throw new EnvError(`Invalid environment variables:\n  BACKUP_KEY: ${result.error.issues[0]!.message}`);
  return result.data.BACKUP_KEY;
}
