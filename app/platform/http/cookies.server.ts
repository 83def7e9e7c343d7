import { parseCookie, stringifySetCookie } from "cookie";

/** How the site's cookies are set: Secure, with the __Host- prefix, in production. */
export type CookieSettings = {
  /** Secure attribute and the __Host- prefix: on in production. */
  secure: boolean;
};

/** `__Host-<base>` on a secure site (the browser takes it only from a secure origin, for Path=/ and this host alone). */
export function cookieName(base: string, settings: CookieSettings): string {
  return settings.secure ? `__Host-${base}` : base;
}

/** A cookie's value from a request's Cookie header, parsed by the `cookie` package. */
export function readCookie(cookieHeader: string | null, name: string): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[name] : undefined;
}

/** A Set-Cookie value for one of the site's cookies: always HttpOnly and Path=/, Secure per the settings. */
export function setCookie(
  name: string,
  value: string,
  settings: CookieSettings,
  { maxAgeSeconds, sameSite }: { maxAgeSeconds: number; sameSite: "lax" | "strict" },
): string {
  return stringifySetCookie({ name, value, path: "/", httpOnly: true, sameSite, maxAge: maxAgeSeconds, secure: settings.secure });
}
