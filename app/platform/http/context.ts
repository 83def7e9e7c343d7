import { createContext } from "react-router";
import type { MailConfig } from "../mail/mailer.server";

/** Who sends the enquiry e-mails and who gets them: what the domain needs of MailConfig (how to reach SMTP is the mailer's). */
export type NotificationAddresses = Pick<MailConfig, "from" | "notifyTo">;

/**
 * The site's absolute address without a trailing slash, for canonical links,
 * Open Graph tags, robots.txt and the sitemap: PUBLIC_URL, or else the
 * origin the request came to (Express applies TRUST_PROXY to its host and
 * protocol). The same for every request to one origin, so pages that cache
 * their document per loader data stay cacheable.
 */
export function siteUrl(services: { publicUrl: string | undefined }, request: Request): string {
  return services.publicUrl ?? new URL(request.url).origin;
}

/**
 * Cache-Control for a public response that names the site's address: any
 * cache may keep it when the address is PUBLIC_URL; without it the address
 * came from the request (Host, or X-Forwarded-Host behind a proxy), which a
 * shared cache in front need not key on, so one client could poison what the
 * others get. Then only the client's own cache may keep it.
 */
export function siteUrlCacheControl(services: { publicUrl: string | undefined }, maxAgeSeconds: number): string {
  return `${services.publicUrl ? "public" : "private"}, max-age=${maxAgeSeconds}`;
}

/** Facts about the request that only Express knows. */
export type RequestInfo = {
  /** The socket's peer, or the forwarded client under TRUST_PROXY; IPv4-mapped IPv6 shown as IPv4. */
  clientIp: string;
  /** The request's id in the log (and its X-Request-Id header); "" outside a request. */
  requestId: string;
  /** Why a request the client got wrong was refused ("Not Found"), for the request's one log line. */
  refused(reason: string): void;
};

export const requestContext = createContext<RequestInfo>({ clientIp: "unknown", requestId: "", refused() {} });

/** The per-request nonce that lets our inline scripts pass the Content-Security-Policy. */
export const cspNonceContext = createContext<string>("");
