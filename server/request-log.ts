import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "react-router";
import type { RequestLine, ServerLog } from "~/platform/observe/log.server";
import { routeLabel, type Metrics } from "~/platform/observe/metrics.server";
import { peerIsTrusted, type TrustProxy } from "./page-origin";

/**
 * One line per request (docs/decisions/031), written when its response is
 * done, whoever answered it: the page cache, Express, React Router, or the
 * request-line checks. `{reqId, method, path, status, ms}` at info, with the
 * reason a client error was refused when there is one; never the query string
 * (a search, an e-mail address), never a header.
 */
export type RequestRecord = {
  id: string;
  /** Why a request the client got wrong was refused ("malformed percent-encoding"), for its line. */
  reason?: string;
};

const RECORD = Symbol("request record");
type Recorded = IncomingMessage & { [RECORD]?: RequestRecord };

/** The record of a request being answered (Express's request is the same object). */
export function requestRecordOf(request: IncomingMessage): RequestRecord | undefined {
  return (request as Recorded)[RECORD];
}

/** What a proxy may send as X-Request-Id: a UUID, a trace id, nginx's $request_id. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;
const MAX_PATH = 200;

export type RequestLogOptions = {
  log: Pick<ServerLog, "request">;
  metrics: Metrics;
  /** Express's compiled TRUST_PROXY: whether the socket's peer is a proxy we trust. */
  trust: TrustProxy;
  /** The app's own paths, the route labels of the metrics. */
  knownPaths: ReadonlySet<string>;
};

/**
 * Starts the record of a request: its id, and its line once the response is
 * done. The caller sends the id back as X-Request-Id (set ahead of a
 * writeHead with a list of headers, a header costs Node a merge of all of them).
 */
export function requestLog({ log, metrics, trust, knownPaths }: RequestLogOptions) {
  return (request: IncomingMessage, response: ServerResponse): RequestRecord => {
    const started = performance.now();
    const incoming = request.headers["x-request-id"];
    // Only a proxy we trust names the request: anyone else could forge another request's id.
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) && peerIsTrusted(request, trust) ? incoming : randomUUID();
    const record: RequestRecord = { id };
    (request as Recorded)[RECORD] = record;
    const method = request.method ?? "";
    const target = request.url ?? "";
    const query = target.indexOf("?");
    const fullPath = query === -1 ? target : target.slice(0, query);
    const path = fullPath.length > MAX_PATH ? `${fullPath.slice(0, MAX_PATH)}…` : fullPath;
    response.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const status = response.headersSent ? response.statusCode : 0;
      const line: RequestLine = { reqId: id, method, path, status, ms: Math.round(seconds * 10_000) / 10 };
      if (record.reason !== undefined) line.reason = record.reason;
      // The client went away before the whole response was sent.
      if (!response.writableFinished) line.aborted = true;
      log.request(status >= 500 ? "warn" : "info", line);
      metrics.request(routeLabel(fullPath, knownPaths), method, status, seconds);
    });
    return record;
  };
}

/** Every path of the app's routes that has no parameter: "/", "/admin", "/api/contact"… */
export function routePaths(build: Pick<ServerBuild, "routes"> | undefined): Set<string> {
  const paths = new Set<string>();
  for (const route of Object.values(build?.routes ?? {})) {
    if (!route) continue;
    const segments: string[] = [];
    for (let at: typeof route | undefined = route; at; at = at.parentId ? build!.routes[at.parentId] : undefined) {
      if (at.path) segments.unshift(at.path);
    }
    const path = `/${segments.join("/")}`.replace(/\/+/g, "/");
    if (!/[:*]/.test(path)) paths.add(path);
  }
  return paths;
}
