import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** A host of a name or IPv4 address and a port: other forms (IPv6, odd characters) go the long way. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$/;
/** "scheme://host" → origin, for the few hosts a site answers to. */
const origins = new Map<string, string | null>();

/** Express's compiled TRUST_PROXY: is the peer at this address a proxy we believe? */
export type TrustProxy = (address: string, hop: number) => boolean;

const PEER_TRUSTED = Symbol("peer trusted");

/**
 * Whether the request's peer (the socket's, not a forwarded one) is a proxy
 * TRUST_PROXY names. Asked once per connection: a keep-alive connection has
 * one peer, and proxy-addr parses the address on every call.
 */
export function peerIsTrusted(request: IncomingMessage, trust: TrustProxy): boolean {
  const socket = request.socket as Socket & { [PEER_TRUSTED]?: boolean };
  socket[PEER_TRUSTED] ??= trust(socket.remoteAddress ?? "", 0);
  return socket[PEER_TRUSTED];
}

/**
 * The origin a cached page is rendered for, as Express and React Router
 * would see it: PUBLIC_URL; or else the scheme and host the client asked for,
 * from X-Forwarded-Proto and X-Forwarded-Host when the peer is a proxy
 * TRUST_PROXY names (the first value of each, as Express takes them), from
 * the Host header otherwise. The cache keeps one page per origin, so a host
 * one client names is never shown to another. Undefined (the long way, where
 * Express refuses or reports it) for a host or scheme that is not plain.
 */
export function pageOrigin(request: IncomingMessage, publicUrl: string | undefined, trust: TrustProxy): string | undefined {
  const hostHeader = request.headers.host;
  // Express answers a missing or unusable Host header with a 400.
  if (!hostHeader || originOf("http", hostHeader) === undefined) return undefined;
  if (publicUrl) return publicUrl;
  let scheme = "http";
  let host = hostHeader;
  if (peerIsTrusted(request, trust)) {
    scheme = firstValue(request.headers["x-forwarded-proto"])?.toLowerCase() ?? scheme;
    host = firstValue(request.headers["x-forwarded-host"]) ?? host;
  }
  return scheme === "http" || scheme === "https" ? originOf(scheme, host) : undefined;
}

function originOf(scheme: string, host: string): string | undefined {
  const key = `${scheme}://${host}`;
  let origin = origins.get(key);
  if (origin === undefined) {
    origin = PLAIN_HOST.test(host) && URL.canParse(`${key}/`) ? new URL(`${key}/`).origin : null;
    if (origins.size >= 64) origins.clear();
    origins.set(key, origin);
  }
  return origin ?? undefined;
}

/** "a, b" → "a": a forwarded header's first value (the client's), as Express reads it. */
export function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(",", 1)[0]?.trim();
  return first ? first : undefined;
}
