import { isIP } from "node:net";

/**
 * Where passkeys are bound (WebAuthn's relying party): with PUBLIC_URL, its
 * host (the RP ID) and origin; without it (a first run, development), the
 * address the request came to, so passkeys work at http://localhost:3000.
 * Browsers refuse passkeys on a bare IP address and on plain http:// other
 * than localhost: those are refused here with words the sign-in form can
 * show, instead of a browser error nobody can read.
 */
export type RelyingParty = { ok: true; rpId: string; origin: string } | { ok: false; reason: "ip-address" | "insecure"; message: string };

export const PASSKEY_IP_MESSAGE =
  "Passkeys cannot be used at an IP address: browsers only offer them at a site's name. Open this site at its domain name, or at http://localhost on this computer, to use a passkey.";
export const PASSKEY_INSECURE_MESSAGE =
  "Passkeys need a secure connection: browsers only offer them at https:// addresses and at localhost. Open this site over HTTPS to use a passkey.";

function isLocalhost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost");
}

export function relyingParty(publicUrl: string | undefined, requestUrl: string): RelyingParty {
  const url = new URL(publicUrl ?? requestUrl);
  // URL keeps an IPv6 address in brackets.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(hostname) !== 0) return { ok: false, reason: "ip-address", message: PASSKEY_IP_MESSAGE };
  if (url.protocol !== "https:" && !isLocalhost(hostname)) return { ok: false, reason: "insecure", message: PASSKEY_INSECURE_MESSAGE };
  return { ok: true, rpId: hostname, origin: url.origin };
}
