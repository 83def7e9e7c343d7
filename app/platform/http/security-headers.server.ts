import { randomBytes, randomFillSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import helmet from "helmet";

export type SecurityHeaders = {
  /** Header names and values, alternating (what `writeHead` takes), with this response's nonce in the CSP. */
  forNonce(nonce: string): string[];
  /**
   * A JSON answer's headers, the same for every response (decision 083): the page's set with
   * what only documents heed left out and a policy that allows nothing, as for a static file.
   * Nothing in a JSON answer runs, so it needs no nonce.
   */
  readonly forJson: readonly string[];
};

const NONCE_BYTES = 16;
/** Random bytes for the next nonces, drawn from the CSPRNG 256 nonces at a time, each used once. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolOffset = noncePool.length;

/** A fresh CSP nonce: 128 random bits. */
export function newNonce(): string {
  if (noncePoolOffset === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  noncePoolOffset += NONCE_BYTES;
  return noncePool.toString("base64", noncePoolOffset - NONCE_BYTES, noncePoolOffset);
}

export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/**
 * Every response's security headers, as helmet writes them with our policy.
 * helmet's output is the same for every response but for the nonce, so it is
 * run once, with a placeholder nonce, and its headers are reused: the Express
 * routes and the page cache send exactly the same set, at the cost of a copy.
 */
export function securityHeaders({
  dev,
  hsts,
  styleHashes = [],
  imageOrigins = [],
}: {
  dev: boolean;
  hsts: boolean;
  /** Other origins the pages load images from (PUBLIC_IMAGES_URL's). */
  imageOrigins?: string[];
  /** `'sha256-…'` sources of inline stylesheets the pages may carry (decision 017). */
  styleHashes?: string[];
}): SecurityHeaders {
  const placeholder = `nonce${randomBytes(18).toString("base64url")}`;
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", `'nonce-${placeholder}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
        // Vite injects styles inline in development only; a hash beside 'unsafe-inline' would switch it off.
        "style-src": ["'self'", ...(dev ? ["'unsafe-inline'"] : styleHashes)],
        "img-src": ["'self'", "data:", "blob:", ...imageOrigins],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...(dev ? ["ws:", "wss:"] : [])],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
      },
    },
    // Same-origin images and scripts only; nothing needs cross-origin isolation.
    crossOriginEmbedderPolicy: false,
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: hsts,
  });

  // helmet only sets and removes headers on the response it is given.
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => void headers.set(name, value),
    removeHeader: (name: string) => void headers.delete(name),
  };
  // Nothing on the site uses these; a script slipped in could not either.
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure;

  const flat = [...headers].flat();
  const cspIndex = flat.findIndex((value) => value.includes(placeholder));
  const [beforeNonce, afterNonce] = flat[cspIndex]!.split(placeholder) as [string, string];
  const forJson: string[] = [];
  for (const [name, value] of headers) {
    if (DOCUMENT_ONLY.includes(name)) continue;
    forJson.push(name, name === "Content-Security-Policy" ? NOT_A_DOCUMENT_POLICY : value);
  }
  return {
    forNonce(nonce) {
      const copy = flat.slice();
      copy[cspIndex] = beforeNonce + nonce + afterNonce;
      return copy;
    },
    forJson: Object.freeze(forJson),
  };
}

/**
 * The policy of what is not a page (a script, a stylesheet, an image, a JSON answer): opened
 * as a page, it may run and load nothing, nor be framed.
 */
const NOT_A_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * What a page's headers mean nothing to: a script or stylesheet runs under
 * the page's policy, not its own; permissions, framing, opener and origin
 * isolation are properties of documents. Sent with every static file they
 * cost a kilobyte each, about as much as a small script (decision 039).
 */
const DOCUMENT_ONLY = [
  "Permissions-Policy",
  "Cross-Origin-Opener-Policy",
  "Origin-Agent-Cluster",
  "Referrer-Policy",
  "X-DNS-Prefetch-Control",
  "X-Download-Options",
  "X-Frame-Options",
  "X-Permitted-Cross-Domain-Policies",
  "X-XSS-Protection",
];

/**
 * A static file's headers, from the page's set every response starts with
 * (serve-static's setHeaders, only for a file it found: a missing one gets a
 * page): X-Content-Type-Options, Cross-Origin-Resource-Policy and
 * Strict-Transport-Security stay, the page's policy becomes one that allows
 * nothing, and what only documents heed goes.
 */
export function forStaticFile(res: ServerResponse): void {
  for (const name of DOCUMENT_ONLY) res.removeHeader(name);
  res.setHeader("Content-Security-Policy", NOT_A_DOCUMENT_POLICY);
}
