import { createContext } from "react-router";
import type { CookieSettings } from "~/auth/sessions.server";
import type { Company } from "~/company/company";
import type { ImageStorage } from "~/storage/storage.server";
import type { Clock } from "./clock.server";
import type { Db } from "./db.server";
import type { MailConfig } from "./env.server";

/** Who sends the enquiry e-mails and who gets them: what the domain needs of MailConfig (how to reach SMTP is the mailer's). */
export type NotificationAddresses = Pick<MailConfig, "from" | "notifyTo" | "acknowledge">;

/** What every loader and action gets from the server, created once at start-up. */
export type AppServices = {
  db: Db;
  /** The database's clock, for times several instances compare (clock.server.ts). */
  clock: Clock;
  /** The images bucket. */
  storage: ImageStorage;
  company: Company;
  /** PUBLIC_URL without its trailing slash; undefined: use the request's own origin (see siteUrl). */
  publicUrl: string | undefined;
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

/**
 * The site's absolute address without a trailing slash, for canonical links,
 * Open Graph tags, robots.txt and the sitemap: PUBLIC_URL, or else the
 * origin the request came to (Express applies TRUST_PROXY to its host and
 * protocol). The same for every request to one origin, so pages that cache
 * their document per loader data stay cacheable.
 */
export function siteUrl(services: Pick<AppServices, "publicUrl">, request: Request): string {
  return services.publicUrl ?? new URL(request.url).origin;
}

/**
 * Cache-Control for a public response that names the site's address: any
 * cache may keep it when the address is PUBLIC_URL; without it the address
 * came from the request (Host, or X-Forwarded-Host behind a proxy), which a
 * shared cache in front need not key on, so one client could poison what the
 * others get. Then only the client's own cache may keep it.
 */
export function siteUrlCacheControl(services: Pick<AppServices, "publicUrl">, maxAgeSeconds: number): string {
  return `${services.publicUrl ? "public" : "private"}, max-age=${maxAgeSeconds}`;
}

/** Facts about the request that only Express knows. */
export type RequestInfo = {
  /** The socket's peer, or the forwarded client under TRUST_PROXY; IPv4-mapped IPv6 shown as IPv4. */
  clientIp: string;
};

export const requestContext = createContext<RequestInfo>({ clientIp: "unknown" });

/** The per-request nonce that lets our inline scripts pass the Content-Security-Policy. */
export const cspNonceContext = createContext<string>("");
