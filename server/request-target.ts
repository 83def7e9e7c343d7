import type { IncomingMessage, ServerResponse } from "node:http";
import { printable } from "~/platform/observe/log-text";
import type { RequestRecord } from "./request-log";

/** The methods the site's routes answer (React Router takes PUT, PATCH and DELETE as form writes). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The request line, made ordinary before anything else reads it (RFC 9112
 * §3.2). Everything after this point, the page cache, Express and React
 * Router, sees one of the site's methods and an origin-form target
 * ("/path?query") whose path decodes:
 *
 * - Other methods (TRACE, CONNECT, WebDAV's) are a 405: fetch's Request,
 *   which React Router builds, cannot even represent TRACE or CONNECT.
 * - `OPTIONS *` (asterisk form) asks about the server: 204 with Allow. Any
 *   other method with `*` is malformed: 400.
 * - An absolute-form target (`GET http://host/path`, which proxies send) is
 *   turned into its path and query, and its host replaces the Host header,
 *   as the RFC says a server must.
 * - Anything else that does not start with "/", and a path whose percent
 *   escapes do not decode, is a 400: no route could match it.
 *
 * Returns true when it has answered the request itself (with the request's
 * id as X-Request-Id); the reason for a refusal goes in the request's record,
 * for its one log line.
 */
export function answerUnusualRequest(request: IncomingMessage, response: ServerResponse, record: RequestRecord): boolean {
  const target = request.url ?? "";
  if (!METHODS.has(request.method ?? "")) {
    record.reason = `method ${printable(request.method ?? "", 16)} not allowed`;
    response
      .writeHead(405, {
        "X-Request-Id": record.id,
        Allow: "GET, HEAD, POST",
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        Connection: "close",
      })
      .end("Method Not Allowed\n");
    return true;
  }
  if (target.startsWith("/") && !target.includes("%")) return false;

  if (target === "*") {
    if (request.method === "OPTIONS") {
      response.writeHead(204, { "X-Request-Id": record.id, Allow: "GET, HEAD, POST" }).end();
      return true;
    }
    return refuse(response, record, "the asterisk form is for OPTIONS only");
  }
  if (/^https?:\/\//i.test(target)) {
    if (!URL.canParse(target)) return refuse(response, record, "malformed absolute URL");
    const url = new URL(target);
    request.url = `${url.pathname}${url.search}`;
    request.headers.host = url.host;
  } else if (!target.startsWith("/")) {
    return refuse(response, record, "the target must be a path");
  }
  if (decodedPath(request.url!) === undefined) return refuse(response, record, "malformed percent-encoding");
  return false;
}

/** The target's path, percent-decoded; undefined when its escapes do not decode. */
function decodedPath(target: string): string | undefined {
  try {
    return decodeURIComponent(target.split("?", 1)[0]!);
  } catch {
    return undefined;
  }
}

function refuse(response: ServerResponse, record: RequestRecord, reason: string): true {
  record.reason = reason;
  response
    .writeHead(400, { "X-Request-Id": record.id, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", Connection: "close" })
    .end(`Bad Request: ${reason}\n`);
  return true;
}
