import { createContext } from "react-router";
import type { CookieSettings } from "~/auth/sessions.server";
import type { Company } from "~/company/company";
import type { ImageStorage } from "~/storage/storage.server";
import type { Db } from "./db.server";
import type { MailSettings } from "./env.server";

/** What every loader and action gets from the server, created once at start-up. */
export type AppServices = {
  db: Db;
  /** The images bucket. */
  storage: ImageStorage;
  company: Company;
  /** Who is e-mailed about enquiries; undefined when e-mail is off (no SMTP_URL). */
  mail: Omit<MailSettings, "smtpUrl"> | undefined;
  contact: {
    /** CONTACT_RATE_LIMIT: enquiries per client IP per hour. */
    rateLimit: number;
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

/** Facts about the request that only Express knows. */
export type RequestInfo = {
  /** The socket's peer, or the forwarded client under TRUST_PROXY; IPv4-mapped IPv6 shown as IPv4. */
  clientIp: string;
};

export const requestContext = createContext<RequestInfo>({ clientIp: "unknown" });

/** The per-request nonce that lets our inline scripts pass the Content-Security-Policy. */
export const cspNonceContext = createContext<string>("");
