import net from "node:net";
import { z } from "zod";
import { passwordProblem } from "../password-rules";
import { isValidEmail } from "../email-address";
import { LOG_LEVELS } from "../observe/log.server";

/**
 * Every setting the environment may hold, with the rule each value must keep
 * (zod), and the small parsers of values that need more than a rule. Read by
 * env.server.ts, the one place that reads process.env.
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
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is refused.
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
export const backupKeySetting = optionalText.pipe(
  z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]{43}=$/.test(value), "must be 32 random bytes in base64 (44 characters), e.g. made by `openssl rand -base64 32`")
    .transform((value) => new Uint8Array(Buffer.from(value, "base64")))
    .optional(),
);

/** CONTACT_HARD_LIMIT when unset (or CONTACT_SITE_LIMIT, if that is higher): enquiries an hour, far above any real company's. */
export const DEFAULT_CONTACT_HARD_LIMIT = 5_000;

export const envSchema = z.object({
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
  ADMIN_EMAIL: optionalText.pipe(z.string().refine(isValidEmail, "must be an e-mail address").optional()),
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
  AUDIT_RETENTION_DAYS: wholeNumber(1, 36_500).default(365),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => /^smtps?:\/\/[^/]/.test(value) && URL.canParse(value),
        "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587",
      )
      .optional(),
  ),
  MAIL_FROM: optionalText.pipe(
    z
      .string()
      .refine((value) => parseMailbox(value) !== undefined, 'must be an e-mail address, or "Name <address>"')
      .optional(),
  ),
  CONTACT_NOTIFY_TO: optionalText.pipe(
    z
      .string()
      .refine((value) => value.split(",").every((part) => isValidEmail(part.trim())), "must be an e-mail address, or several separated by commas")
      .optional(),
  ),
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
    z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as eu-west-2 (lowercase letters, digits, hyphens)")
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, "must be an access key id (printable characters, no spaces)")
      .optional(),
  ),
  S3_SECRET_ACCESS_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, "must be a secret key (printable characters, no spaces)")
      .optional(),
  ),
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

export const SECRET_VARIABLES = new Set(["DATABASE_URL", "ADMIN_PASSWORD", "SMTP_URL", "S3_SECRET_ACCESS_KEY", "METRICS_TOKEN", "BACKUP_KEY"]);

/** The S3 variables that mean nothing without S3_BUCKET. */
export const S3_DETAILS = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;

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
