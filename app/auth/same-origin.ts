/**
 * Whether a request that changes state comes from one of our own pages. The
 * Origin header says where a browser's request comes from; Sec-Fetch-Site is
 * the fallback for browsers that leave Origin out. A client that sends
 * neither is not a browser acting for someone else (and without a session
 * cookie, SameSite=Lax, a cross-site form gets nowhere anyway).
 */
export function isSameOrigin(headers: { origin: string | null; secFetchSite: string | null }, host: string): boolean {
  const { origin, secFetchSite } = headers;
  if (origin !== null) {
    // "null" (sandboxed frames, privacy redirects) and garbage fail to parse: refused.
    if (!URL.canParse(origin)) return false;
    return new URL(origin).host === host.toLowerCase();
  }
  return secFetchSite === null || secFetchSite === "same-origin" || secFetchSite === "none";
}

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "Cross-site request refused.";
