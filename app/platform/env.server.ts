import net from "node:net";
import path from "node:path";
import { z } from "zod";
import { passwordProblem } from "./password-rules";
import { isValidEmail } from "./email-address";
import { LOG_LEVELS, type LogLevel } from "./log.server";

/**
 * The one place that reads process.env. Everything else receives the parsed,
 * typed result, so a bad value stops the start with a message naming the
 * variable instead of failing later in some request.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** "name@example.com" or "Name <name@example.com>", the address passing the contact form's strict check. */
export function parseMailbox(value: string): { name?: string; address: string } | undefined {
  const text = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const name = named?.[1]?.trim().replace(/^"(.*)"$/, "$1");
  const address = (named ? named[2]! : text).trim();
  if (!isValidEmail(address) || /[\u0000-\u001f\u007f"<>]/.test(name ?? "")) return undefined;
  return name ? { name, address } : { address };
}

const optionalBoolean = optionalText.pipe(
  z
    .string()
    .refine((value) => /^(true|false|yes|no|on|off|1|0)$/i.test(value), "must be true or false")
    .transform((value) => /^(true|yes|on|1)$/i.test(value))
    .optional(),
);

/** BACKUP_KEY: 32 random bytes in base64 (`openssl rand -base64 32`), which seals backups (decision 040). */
const backupKeySetting = optionalText.pipe(
  z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]{43}=$/.test(value), "must be 32 random bytes in base64 (44 characters), e.g. made by `openssl rand -base64 32`")
    .transform((value) => new Uint8Array(Buffer.from(value, "base64")))
    .optional(),
);

/** CONTACT_HARD_LIMIT when unset (or CONTACT_SITE_LIMIT, if that is higher): enquiries an hour, far above any real company's. */
export const DEFAULT_CONTACT_HARD_LIMIT = 5_000;

const envSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "must be a whole number from 0 to 65535" })
    .int("must be a whole number from 0 to 65535")
    .min(0, "must be a whole number from 0 to 65535")
    .max(65535, "must be a whole number from 0 to 65535")
    .default(3000),
  HOST: z.string().trim().min(1, "must not be empty").optional(),
  DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)")
      .optional(),
  ),
  ADMIN_EMAIL: optionalText.pipe(
    z.string().refine(isValidEmail, "must be an e-mail address").optional(),
  ),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((value) => value === undefined || passwordProblem(value) === undefined, {
      error: (issue) => passwordProblem(String(issue.input)) ?? "is not a usable password",
    }),
  LOGIN_RATE_LIMIT: wholeNumber(1, 1000).default(5),
  CONTACT_RATE_LIMIT: wholeNumber(1, 1_000_000).default(5),
  CONTACT_SITE_LIMIT: wholeNumber(1, 1_000_000).default(100),
  CONTACT_HARD_LIMIT: wholeNumber(1, 10_000_000).optional(),
  ENQUIRY_RETENTION_DAYS: wholeNumber(1, 36_500).optional(),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .refine((value) => /^smtps?:\/\/[^/]/.test(value) && URL.canParse(value), "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587")
      .optional(),
  ),
  MAIL_FROM: optionalText.pipe(
    z.string().refine((value) => parseMailbox(value) !== undefined, 'must be an e-mail address, or "Name <address>"').optional(),
  ),
  CONTACT_NOTIFY_TO: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => value.split(",").every((part) => isValidEmail(part.trim())),
        "must be an e-mail address, or several separated by commas",
      )
      .optional(),
  ),
  CONTACT_ACKNOWLEDGE: optionalBoolean,
  SMTP_INSECURE: optionalBoolean,
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => parseTrustProxy(value) !== undefined,
        "must be false, true, a number of proxy hops, or a comma-separated list of addresses, subnets (10.0.0.0/8) or loopback/linklocal/uniquelocal",
      )
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => publicUrlOf(value) !== undefined,
        "must be the site's public address, an http:// or https:// URL without a path, ? or #, e.g. https://www.example-lettings.co.uk",
      )
      .transform((value) => publicUrlOf(value)!)
      .optional(),
  ),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens")
      .optional(),
  ),
  S3_ENDPOINT: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => /^https?:\/\/[^/?#]/i.test(value) && !/[?#]/.test(value) && URL.canParse(value) && new URL(value).username === "",
        "must be the S3 server's http:// or https:// URL without credentials, e.g. https://s3.eu-west-2.amazonaws.com (leave it unset for AWS)",
      )
      .optional(),
  ),
  S3_REGION: optionalText.pipe(
    z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as eu-west-2 (lowercase letters, digits, hyphens)").optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText.pipe(z.string().regex(/^[\x21-\x7e]{1,256}$/, "must be an access key id (printable characters, no spaces)").optional()),
  S3_SECRET_ACCESS_KEY: optionalText.pipe(z.string().regex(/^[\x21-\x7e]{1,256}$/, "must be a secret key (printable characters, no spaces)").optional()),
  S3_FORCE_PATH_STYLE: optionalBoolean,
  PUBLIC_IMAGES_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => publicImagesUrlOf(value) !== undefined,
        "must be an http:// or https:// URL without credentials, ? or #, where the images are served by name, e.g. https://images.example-lettings.co.uk/",
      )
      .transform((value) => publicImagesUrlOf(value)!)
      .optional(),
  ),
  SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: wholeNumber(1_000, 3_600_000).default(65_000),
  DATABASE_POOL_MAX: wholeNumber(1, 1_000).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(100, 600_000).default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(30_000),
  LOG_LEVEL: optionalText.pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).optional()),
  METRICS_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 characters, without spaces (e.g. `openssl rand -hex 32`)")
      .optional(),
  ),
  BACKUP_KEY: backupKeySetting,
  COMPANY_NAME: optionalText,
  COMPANY_SHORT_NAME: optionalText,
  COMPANY_PHONE: optionalText,
  COMPANY_EMAIL: optionalText.pipe(z.email("must be an e-mail address").optional()),
  COMPANY_ADDRESS: optionalText,
  COMPANY_LOGO_URL: optionalText,
});

/** Every variable read here: docs/configuration.md and .env.example must name exactly these (tests/integration/docs-commands.test.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

const SECRET_VARIABLES = new Set(["DATABASE_URL", "ADMIN_PASSWORD", "SMTP_URL", "S3_SECRET_ACCESS_KEY", "METRICS_TOKEN", "BACKUP_KEY"]);

/** The S3 variables that mean nothing without S3_BUCKET. */
const S3_DETAILS = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;

/**
 * PUBLIC_IMAGES_URL → the prefix an image's name is appended to, ending in
 * "/" ("https://cdn.example.co.uk/images/"). Undefined for what is not an
 * absolute http(s) URL, or has credentials, a query or a fragment.
 */
export function publicImagesUrlOf(value: string): string | undefined {
  const text = value.trim();
  if (!/^https?:\/\/[^/?#]/i.test(text) || /[?#]/.test(text) || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.username !== "" || url.password !== "") return undefined;
  return url.href.endsWith("/") ? url.href : `${url.href}/`;
}

/**
 * PUBLIC_URL → the origin pages are found at, without a trailing slash
 * ("https://www.example.co.uk"). Undefined for what is not an absolute
 * http(s) URL, or has credentials, a query, a fragment or a path: the site
 * is served from the root of its host, and none of those belong in a
 * canonical address.
 */
export function publicUrlOf(value: string): string | undefined {
  const text = value.trim();
  if (!/^https?:\/\/[^/?#]/i.test(text) || /[?#]/.test(text) || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.username !== "" || url.password !== "" || !/^\/*$/.test(url.pathname)) return undefined;
  return url.origin;
}

/** What Express's "trust proxy" setting takes. */
export type TrustProxy = boolean | number | string[];

const PROXY_KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: unset or false → the client is the socket's peer. true → the
 * left-most X-Forwarded-For address (only behind a proxy that overwrites it);
 * a number → that many proxies in front; a list → trust these addresses or
 * subnets. Returns undefined for a value Express would not understand.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim().toLowerCase();
  if (text === "false") return false;
  if (text === "true") return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    if (PROXY_KEYWORDS.has(entry)) return true;
    const [address, bits, ...rest] = entry.split("/");
    const family = net.isIP(address ?? "");
    if (family === 0 || rest.length > 0) return false;
    if (bits === undefined) return true;
    const prefix = Number(bits);
    return /^\d+$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
  });
  return valid && entries.length > 0 ? entries : undefined;
}

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

export type S3Config = {
  bucket: string;
  /** S3_ENDPOINT; undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  /** S3_REGION, us-east-1 when unset (what most S3-compatible servers expect). */
  region: string;
  /** S3_ACCESS_KEY_ID + S3_SECRET_ACCESS_KEY; undefined: the SDK's own chain (AWS_* variables, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** S3_FORCE_PATH_STYLE: http://host/bucket/name instead of http://bucket.host/name. */
  forcePathStyle: boolean;
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

export type MailConfig = {
  /** SMTP_URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  /** MAIL_FROM, as given: "address" or "Name <address>". */
  from: string;
  /** CONTACT_NOTIFY_TO: who is told of each enquiry. */
  notifyTo: string[];
  /** CONTACT_ACKNOWLEDGE: also e-mail the visitor a short receipt (off by default). */
  acknowledge: boolean;
  /** SMTP_INSECURE: let smtp:// go without STARTTLS (off by default: STARTTLS is required). */
  insecure: boolean;
};

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const result = envSchema.safeParse(cleaned);
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
    throw new EnvError(
      "Invalid environment variables:\n  ADMIN_EMAIL, ADMIN_PASSWORD: set both (to create that admin at start) or neither",
    );
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
    initialAdmin:
      env.ADMIN_EMAIL !== undefined && env.ADMIN_PASSWORD !== undefined
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
        : undefined,
    loginRateLimit: env.LOGIN_RATE_LIMIT,
    contactRateLimit: env.CONTACT_RATE_LIMIT,
    contactSiteLimit: env.CONTACT_SITE_LIMIT,
    // Far above any real company's traffic; never below the site-wide limit it stands over.
    contactHardLimit: env.CONTACT_HARD_LIMIT ?? Math.max(DEFAULT_CONTACT_HARD_LIMIT, env.CONTACT_SITE_LIMIT),
    enquiryRetentionDays: env.ENQUIRY_RETENTION_DAYS,
    mail:
      env.SMTP_URL !== undefined && env.MAIL_FROM !== undefined && env.CONTACT_NOTIFY_TO !== undefined
        ? {
            smtpUrl: env.SMTP_URL,
            from: env.MAIL_FROM,
            notifyTo: env.CONTACT_NOTIFY_TO.split(",").map((address) => address.trim()),
            acknowledge: env.CONTACT_ACKNOWLEDGE ?? false,
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
