import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import expressStaticGzip from "express-static-gzip";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { CROSS_SITE_MESSAGE, SAFE_METHODS, isSameOrigin } from "~/auth/same-origin";
import { isRecordedFile } from "~/images/images.server";
import { serveImage } from "~/images/serve.server";
import { acceptsGzip, precompress, type Precompressed } from "~/platform/http/compression.server";
import { drainWaitsKeptHere } from "~/platform/http/drain-listeners.server";
import { cspNonceContext, requestContext } from "~/platform/http/context";
import { databaseFailureText } from "~/platform/db/database-health.server";
import { isDatabaseUnavailable, pingDatabase } from "~/platform/db/db.server";
import type { TrustProxy } from "~/platform/config/settings.server";
import { printable } from "~/platform/observe/log-text";
import type { Log } from "~/platform/observe/log.server";
import { forStaticFile, newNonce, type SecurityHeaders } from "~/platform/http/security-headers.server";
import { nodeBodySource } from "~/platform/http/request-body.server";
import { listActiveProjects } from "~/projects/projects.server";
import { servicesContext, type AppServices } from "~/services";
import { answerContactApi, type JsonAnswer } from "~/routes/contact-api.server";
import { firstValue, peerIsTrusted, type TrustProxy as TrustProxyFn } from "./page-origin";
import { requestRecordOf } from "./request-log";

export type ExpressAppOptions = {
  services: AppServices;
  trustProxy: TrustProxy;
  security: SecurityHeaders;
  /** Vite's dev server under `npm run dev`; the built client otherwise. */
  vite?: ViteDevServer;
  /** The production build, loaded once; undefined in development (reloaded per request). */
  build: ServerBuild | undefined;
  /** True from SIGTERM on: /readyz answers 503 while the server still answers everything else. */
  isDraining?: () => boolean;
  /** Told of every GET /readyz: a balancer watching it is why a stop drains first. */
  onReadinessCheck?: () => void;
};

/** A React Router load context for one request: the services, the CSP nonce, the client's address. */
export type LoadContextOf = (nonce: string, request?: { clientIp: string; id: string; refused(reason: string): void }) => RouterContextProvider;

/**
 * Express: POST /api/contact with a JSON answer's headers, then security headers
 * with a nonce per response, compression, the rules every route shares,
 * /healthz, /api/projects, uploaded images, static files, then React Router. Returns the app and how to make a load context, which the
 * page cache uses too.
 */
export function createExpressApp({ services, trustProxy, security, vite, build, isDraining = () => false, onReadinessCheck }: ExpressAppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Who the client is: the socket's peer unless TRUST_PROXY names the proxies in front.
  app.set("trust proxy", trustProxy);
  const trustsProxy = app.enabled("trust proxy");
  const trust = app.get("trust proxy fn") as TrustProxyFn;
  // A write must come from one of our own pages (CSRF): its Origin (or Sec-Fetch-Site) names this host.
  const isFromThisSite = (req: IncomingMessage): boolean => {
    if (SAFE_METHODS.has(req.method ?? "")) return true;
    const { headers } = req;
    const host = (trustsProxy && firstValue(headers["x-forwarded-host"])) || headers.host || "";
    return isSameOrigin({ origin: headers.origin ?? null, secFetchSite: headerText(headers["sec-fetch-site"]) ?? null }, host);
  };
  /** An enquiry from the client itself, answered as the Express route below answers it. */
  const answerContact = (req: IncomingMessage, res: ServerResponse, clientIp: string, extraHeaders: readonly string[]) => {
    answerContactApi(services, normalizeIp(clientIp), nodeBodySource(req))
      .then((answer) => sendJson(res, answer, security.forJson, extraHeaders))
      .catch((error: unknown) => {
        // As Express's error handler below answers it.
        const status = failureStatus(services.log, error, req);
        if (res.headersSent) res.destroy();
        else
          res
            .writeHead(status, [...security.forJson, ...extraHeaders, "Cache-Control", "no-store", "Content-Type", "text/plain; charset=utf-8"])
            .end(failureText(status));
      });
  };
  /**
   * POST /api/contact from a client that is not a proxy, answered ahead of Express (decision 083), with
   * `extraHeaders` (the request's id) in its one writeHead. False for what Express must answer: a
   * proxy's request (whose client is in X-Forwarded-For), no usable Host, a write from another site.
   */
  const answerContactAhead = (req: IncomingMessage, res: ServerResponse, extraHeaders: readonly string[]): boolean => {
    try {
      if (peerIsTrusted(req, trust) || !hasUsableHost(req) || !isFromThisSite(req)) return false;
    } catch {
      // Not here, outside Express: it runs the same checks and answers what they throw.
      return false;
    }
    answerContact(req, res, req.socket.remoteAddress ?? "unknown", extraHeaders);
    return true;
  };
  // Parsing of bodies is left to the routes, which cap their size themselves.

  // The site's one hot write, answered here rather than through React Router's pipeline (decision 065),
  // and ahead of the middleware below that a JSON answer has no use for (decision 083): the per-response
  // nonce and the page's security headers (it gets a JSON answer's, set once), compression (a
  // 100-byte answer). A request the shared rules below would refuse (no usable Host, a write from
  // another site) goes on to them, as for any route.
  app.post("/api/contact", (req: Request, res: Response, next: NextFunction) => {
    if (!hasUsableHost(req) || !isFromThisSite(req)) {
      next();
      return;
    }
    answerContact(req, res, req.ip ?? req.socket.remoteAddress ?? "unknown", []);
  });

  // helmet's headers, computed once; each response gets its own nonce.
  app.use((_req, res, next) => {
    const nonce = newNonce();
    res.locals.cspNonce = nonce;
    const headers = security.forNonce(nonce);
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    next();
  });
  app.use(
    compression({
      // Quality 4 with a 256 KB window: most of brotli's gain for a fraction of
      // its default memory (4 MB per response in flight).
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
    }),
  );
  app.use(drainWaitsKeptHere);
  // React Router builds a URL from the Host header; without a usable one it
  // would fail with a 500, so refuse such requests up front.
  app.use((req, res, next) => {
    if (!hasUsableHost(req)) {
      res.status(400).type("text/plain").send("Bad Request: missing or invalid Host header");
      return;
    }
    next();
  });

  // Rules every route shares, in one pass:
  // - nothing here answers cross-origin preflights, and no route should run for them;
  // - a page of another site must not change anything (CSRF): writes whose Origin
  //   (or Sec-Fetch-Site) is another site are refused, whatever the route. React
  //   Router has a check of its own, but it answers a bare 400;
  // - admin pages and data are private: never stored by a browser or proxy, never
  //   indexed. React Router matches paths decoded and in any case (/Admin,
  //   /%61dmin), so this does too.
  app.use((req, res, next) => {
    if (req.method === "OPTIONS") {
      res.status(204).set("Allow", "GET, HEAD, POST").end();
      return;
    }
    if (!isFromThisSite(req)) {
      res.status(403).set("Cache-Control", "no-store");
      if (req.path.startsWith("/api/") || req.path.endsWith(".data")) res.json({ error: CROSS_SITE_MESSAGE });
      else res.type("text/plain").send(`Forbidden: ${CROSS_SITE_MESSAGE}`);
      return;
    }
    if (isAdminPath(req.path)) res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" });
    next();
  });

  // Liveness: the process and its database answer (it stays 200 while the server drains).
  app.get("/healthz", async (_req: Request, res: Response) => {
    const ok = await pingDatabase(services.db);
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ status: ok ? "ok" : "database unavailable" });
  });
  // Readiness, for load balancers: send this instance requests. 503 from SIGTERM on (docs/deploy.md).
  app.get("/readyz", async (_req: Request, res: Response) => {
    onReadinessCheck?.();
    const status = isDraining() ? "shutting down" : (await pingDatabase(services.db)) ? "ok" : "database unavailable";
    res
      .status(status === "ok" ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ status });
  });

  app.get("/api/projects", projectsJson(services));

  // Uploaded images: /images/<timestamp>-<random>.<ext> and their resized copies.
  app.get("/images/:name", serveImage({ storage: services.storage, log: services.log, isRecorded: (name) => isRecordedFile(services.db, name) }));

  if (vite) {
    app.use(vite.middlewares);
  } else {
    const client = fileURLToPath(new URL("../client", import.meta.url));
    // Vite puts a content hash in every file name under /assets: cache forever.
    // The files the build compressed (Brotli, gzip) are sent as they are, in the encoding the
    // browser prefers; each with the headers a file needs rather than a page's (decision 039).
    const precompressed = { enableBrotli: true, orderPreference: ["br", "gz"], index: false };
    app.use(
      "/assets",
      // Hashed names, cached for good: no revalidation, so no ETag or Last-Modified either.
      expressStaticGzip(`${client}/assets`, {
        ...precompressed,
        serveStatic: { immutable: true, maxAge: "1y", index: false, etag: false, lastModified: false, setHeaders: forStaticFile },
      }),
    );
    const publicFiles = expressStaticGzip(client, {
      ...precompressed,
      serveStatic: { maxAge: "1h", index: false, redirect: false, setHeaders: forStaticFile },
    });
    // Every public file has an extension; pages (/, /admin) do not, and
    // should not cost a filesystem lookup on each request.
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  const loadContext: LoadContextOf = (nonce, request) => {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    context.set(cspNonceContext, nonce);
    if (request !== undefined) {
      context.set(requestContext, { clientIp: normalizeIp(request.clientIp), requestId: request.id, refused: request.refused });
    }
    return context;
  };
  app.use(
    createRequestHandler({
      // In production the build is loaded once: given a function, React Router
      // would import it and rebuild its route table on every request (that is
      // for hot reload in development).
      build: build ?? (() => import("virtual:react-router/server-build")),
      mode: build ? "production" : "development",
      getLoadContext: (req, res) => {
        const record = requestRecordOf(req);
        return loadContext(res.locals.cspNonce as string, {
          clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
          id: record?.id ?? "",
          refused: (reason) => {
            if (record) record.reason = reason;
          },
        });
      },
    }),
  );
  app.use(expressErrorHandler(services.log));
  return { app, loadContext, answerContactAhead };
}

/**
 * The public gallery as JSON, answered by Express itself: it is the hottest
 * read, and React Router's fetch adapter would double its cost. Queried and
 * compressed once per version of the public data; Express answers 304 when
 * the ETag matches (docs/decisions/007-performance-of-public-pages.md).
 */
function projectsJson({ db, log, publicVersion }: AppServices) {
  let kept: (Precompressed & { version: number }) | undefined;
  return async (req: Request, res: Response) => {
    try {
      // Read first: the list queried after it is at least this new.
      const version = await publicVersion();
      if (!kept || kept.version < version) {
        kept = { version, ...precompress(JSON.stringify(await listActiveProjects(db))) };
      }
      const json = kept;
      res.set({ "Cache-Control": "no-cache", "Content-Type": "application/json; charset=utf-8", Vary: "Accept-Encoding" });
      // One ETag for the content, whichever encoding carries it.
      res.set("ETag", json.etag);
      if (acceptsGzip(req.headers["accept-encoding"])) {
        res.set("Content-Encoding", "gzip").send(json.gzip);
      } else {
        res.send(json.identity);
      }
    } catch (error) {
      const record = requestRecordOf(req);
      if (isDatabaseUnavailable(error) && record) record.reason = databaseFailureText(error);
      else log.error({ err: error, reqId: requestRecordOf(req)?.id }, "Could not load renovation projects");
      res.status(503).set({ "Cache-Control": "no-store", "Retry-After": "5" }).json({ error: "Could not load renovation projects" });
    }
  };
}

/**
 * Express's last word on an error a middleware passed on (a parameter that
 * does not decode, say): a client's mistake is a 4xx with its reason on the
 * request's one log line, a fault of ours is logged in full and answered 500.
 */
const expressErrorHandler =
  (log: Log) =>
  (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const status = failureStatus(log, error, req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).set("Cache-Control", "no-store").type("text/plain").send(failureText(status));
  };

/** The status of an error a route let through: its own 4xx (its reason on the request's log line), or 500 (logged in full). */
function failureStatus(log: Log, error: unknown, req: IncomingMessage): number {
  const declared = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  const status = typeof declared === "number" && declared >= 400 && declared < 600 ? declared : 500;
  const record = requestRecordOf(req);
  if (status < 500) {
    if (record) record.reason = printable((error as Error).message);
  } else log.error({ err: error, reqId: record?.id }, "Request failed");
  return status;
}

const failureText = (status: number) => (status < 500 ? "Bad Request\n" : "Internal Server Error\n");

/** React Router builds a URL from the Host header; without a usable one it would fail with a 500. */
function hasUsableHost(req: IncomingMessage): boolean {
  const host = req.headers.host;
  return host !== undefined && host !== "" && URL.canParse(`http://${host}/`);
}

/** A header Node may give as a list (one it does not know), as Express's `req.get` reads it. */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** "::ffff:203.0.113.5" and "203.0.113.5" are one client. */
function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

/**
 * A JSON answer (decision 083): its status, the JSON answer's security headers, its own headers
 * (by the lower-case names React Router's adapter sent) and the body with its length, in one
 * writeHead and one write; no compression for a body this small.
 */
function sendJson(res: ServerResponse, { status, body, headers }: JsonAnswer, securityHeaders: readonly string[], extraHeaders: readonly string[]): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  const named = [...securityHeaders, ...extraHeaders, "content-type", "application/json; charset=utf-8", "content-length", String(Buffer.byteLength(text))];
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) named.push(name.toLowerCase(), value);
  res.writeHead(status, named);
  res.end(text);
}

/** /admin…, /api/admin…, however React Router would still match them. */
function isAdminPath(rawPath: string): boolean {
  let pathname = rawPath;
  if (rawPath.includes("%")) {
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      // Malformed escapes: React Router will not match an admin route either.
    }
  }
  return /^\/(?:admin|api\/admin)(?:[/.]|$)/i.test(pathname);
}
