import { createServer, type Server } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, createRequestHandler as createReactRouterHandler } from "react-router";
import type { ViteDevServer } from "vite";
import { countAdmins, ensureAdmin } from "~/auth/admins.server";
import { issueFormToken } from "~/enquiries/form-token.server";
import { startOutboxWorker } from "~/enquiries/outbox-worker.server";
import { startRetentionSchedule } from "~/enquiries/retention.server";
import { prepareDecoy } from "~/auth/password.server";
import { CROSS_SITE_MESSAGE, SAFE_METHODS, isSameOrigin } from "~/auth/same-origin";
import { acceptsGzip, precompress, type Precompressed } from "~/platform/compression.server";
import { cspNonceContext, requestContext, servicesContext, type AppServices } from "~/platform/context";
import { INLINE_STYLE_HASH } from "~/platform/inline-style.server";
import { publicDataVersion } from "~/platform/data-version.server";
import { startDatabaseClock } from "~/platform/clock.server";
import { migrateToLatest, pingDatabase } from "~/platform/db.server";
import {
  NONCE_PLACEHOLDER,
  documentCaptureContext,
  hasCachedDocument,
  type DocumentCapture,
} from "~/platform/document-cache.server";
import { EnvError, loadEnv } from "~/platform/env.server";
import { clientErrorLine } from "~/platform/log-text";
import { listActiveProjects } from "~/projects/projects.server";
import { openBackends } from "~/platform/services.server";
import { serveImage } from "~/storage/serve.server";
import { createPageCache, type PageCache } from "./page-cache";
import { pageOrigin, type TrustProxy } from "./page-origin";
import { answerUnusualRequest } from "./request-target";
import { newNonce, securityHeaders } from "./security-headers";

export type StartOptions = {
  /** Vite's dev server, when running `npm run dev`. */
  vite?: ViteDevServer;
};

export type RunningServer = {
  server: Server;
  stop(): Promise<void>;
};

/**
 * Starts the site: validated environment → database (migrated) → Express with
 * security headers, compression, static files and the React Router handler.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const { database, storage, mailer } = openBackends(env);
  const applied = await migrateToLatest(database);
  console.log(`Database: ${database.description}${applied.length ? ` (applied ${applied.join(", ")})` : ""}`);
  console.log(`Images: ${storage.description}`);
  // Jobs left from before a restart go out as soon as the worker starts.
  const outboxWorker = mailer && startOutboxWorker({ db: database.db, mailer });
  console.log(
    mailer && env.mail
      ? `E-mail: ${mailer.description}, notifying ${env.mail.notifyTo.join(", ")}${env.mail.acknowledge ? ", acknowledging visitors" : ""}`
      : "E-mail: off (no SMTP_URL): enquiries are stored and shown in /admin only",
  );
  if (env.mail?.insecure && env.mail.smtpUrl.startsWith("smtp:")) {
    console.warn(
      "WARNING: SMTP_INSECURE=true: e-mail may go over plain SMTP, where anyone on the network path can read the SMTP password and every enquiry. Use it only for a relay on this machine or a trusted network.",
    );
  }
  // ENQUIRY_RETENTION_DAYS: older enquiries are deleted daily (nothing runs when it is unset).
  const retention = startRetentionSchedule({ db: database.db, retentionDays: env.enquiryRetentionDays, log: console });

  if (env.initialAdmin && (await ensureAdmin(database.db, env.initialAdmin.email, env.initialAdmin.password))) {
    console.log(`Created the admin ${env.initialAdmin.email.trim().toLowerCase()} (ADMIN_EMAIL)`);
  } else if (!env.initialAdmin && (await countAdmins(database.db)) === 0) {
    console.log("No admin account yet: create one with `npm run admin -- create <email>`, or set ADMIN_EMAIL and ADMIN_PASSWORD");
  }
  void prepareDecoy();

  // Times several instances compare (the contact form's token) are on the database's clock.
  const clock = await startDatabaseClock(database);
  const services: AppServices = {
    db: database.db,
    clock,
    storage,
    company: env.company,
    publicUrl: env.publicUrl,
    mail: env.mail && { from: env.mail.from, notifyTo: env.mail.notifyTo, acknowledge: env.mail.acknowledge },
    contact: { rateLimit: env.contactRateLimit, siteLimit: env.contactSiteLimit, retentionDays: env.enquiryRetentionDays },
    auth: {
      // Production cookies are Secure: browsers send them over HTTPS (and to localhost) only.
      cookie: { secure: env.mode === "production" },
      loginRateLimit: env.loginRateLimit,
    },
  };
  const dev = Boolean(options.vite);
  const app = express();
  app.disable("x-powered-by");
  // Who the client is: the socket's peer unless TRUST_PROXY names the proxies in front.
  app.set("trust proxy", env.trustProxy);
  // Parsing of bodies is left to the routes, which cap their size themselves.

  // helmet's headers, computed once; each response gets its own nonce.
  const security = securityHeaders({ dev, hsts: env.mode === "production", styleHashes: [INLINE_STYLE_HASH] });
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
  // React Router builds a URL from the Host header; without a usable one it
  // would fail with a 500, so refuse such requests up front.
  app.use((req, res, next) => {
    const host = req.headers.host;
    if (!host || !URL.canParse(`http://${host}/`)) {
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
    if (!SAFE_METHODS.has(req.method)) {
      const host = (app.enabled("trust proxy") && req.get("x-forwarded-host")?.split(",")[0]?.trim()) || req.get("host") || "";
      const headers = { origin: req.get("origin") ?? null, secFetchSite: req.get("sec-fetch-site") ?? null };
      if (!isSameOrigin(headers, host)) {
        res.status(403).set("Cache-Control", "no-store");
        if (req.path.startsWith("/api/") || req.path.endsWith(".data")) res.json({ error: CROSS_SITE_MESSAGE });
        else res.type("text/plain").send(`Forbidden: ${CROSS_SITE_MESSAGE}`);
        return;
      }
    }
    if (isAdminPath(req.path)) res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" });
    next();
  });

  app.get("/healthz", async (_req: Request, res: Response) => {
    const ok = await pingDatabase(database.db);
    res.status(ok ? 200 : 503).set("Cache-Control", "no-store").json({ status: ok ? "ok" : "database unavailable" });
  });

  // The public gallery as JSON, answered by Express itself: it is the hottest
  // read, and React Router's fetch adapter would double its cost. Queried and
  // compressed once per version of the public data; Express answers 304 when
  // the ETag matches (docs/decisions/007-performance-of-public-pages.md).
  let projectsJson: (Precompressed & { version: number }) | undefined;
  app.get("/api/projects", async (req: Request, res: Response) => {
    try {
      // Read first: the list queried after it is at least this new.
      const version = await publicDataVersion(database.db);
      if (!projectsJson || projectsJson.version < version) {
        projectsJson = { version, ...precompress(JSON.stringify(await listActiveProjects(database.db))) };
      }
      const json = projectsJson;
      res.set({ "Cache-Control": "no-cache", "Content-Type": "application/json; charset=utf-8", Vary: "Accept-Encoding" });
      // One ETag for the content, whichever encoding carries it.
      res.set("ETag", json.etag);
      if (acceptsGzip(req.headers["accept-encoding"])) {
        res.set("Content-Encoding", "gzip").send(json.gzip);
      } else {
        res.send(json.identity);
      }
    } catch (error) {
      console.error("Could not load renovation projects:", error);
      res.status(503).set("Cache-Control", "no-store").json({ error: "Could not load renovation projects" });
    }
  });

  // Uploaded images: /images/<timestamp>-<random>.<ext> and their resized copies.
  app.get("/images/:name", serveImage(storage));

  if (options.vite) {
    app.use(options.vite.middlewares);
  } else {
    const client = fileURLToPath(new URL("../client", import.meta.url));
    // Vite puts a content hash in every file name under /assets: cache forever.
    app.use("/assets", express.static(`${client}/assets`, { immutable: true, maxAge: "1y", index: false }));
    const publicFiles = express.static(client, { maxAge: "1h", index: false, redirect: false });
    // Every public file has an extension; pages (/, /admin) do not, and
    // should not cost a filesystem lookup on each request.
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  // In production the build is loaded once: given a function, React Router
  // would import it and rebuild its route table on every request (that is for
  // hot reload in development).
  const serverBuild = dev ? undefined : await import("virtual:react-router/server-build");
  const loadContext = (nonce: string, clientIp?: string) => {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    context.set(cspNonceContext, nonce);
    if (clientIp !== undefined) context.set(requestContext, { clientIp: normalizeIp(clientIp) });
    return context;
  };
  app.use(
    createRequestHandler({
      build: serverBuild ?? (() => import("virtual:react-router/server-build")),
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => loadContext(res.locals.cspNonce as string, req.ip ?? req.socket.remoteAddress ?? "unknown"),
    }),
  );
  app.use(expressErrorHandler);

  // Cached public pages are answered before Express (docs/decisions/016-…).
  let pages: PageCache | undefined;
  if (serverBuild) {
    const reactRouter = createReactRouterHandler(serverBuild, "production");
    pages = createPageCache({
      isCachedPage: hasCachedDocument,
      dataVersion: () => publicDataVersion(database.db),
      originOf: (request) => pageOrigin(request, env.publicUrl, app.get("trust proxy fn") as TrustProxy),
      async render(url) {
        const capture: DocumentCapture = {};
        const context = loadContext(NONCE_PLACEHOLDER);
        context.set(documentCaptureContext, capture);
        const response = await reactRouter(new Request(url, { headers: { accept: "text/html" } }), context);
        await response.arrayBuffer();
        return response.status === 200 && capture.html !== undefined ? { html: capture.html, headers: response.headers } : undefined;
      },
      securityHeaders: security,
      // The contact form's time-trap token says when the page was served, on the database's clock.
      perResponse: [(now) => issueFormToken(database.db, now)],
      now: () => clock.now(),
    });
  }

  const server = createServer((req, res) => {
    if (answerUnusualRequest(req, res)) return;
    if (!pages?.mayServe(req)) {
      app(req, res);
      return;
    }
    void pages.serve(req, res).then((served) => served || app(req, res));
  });
  applyConnectionLimits(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  console.log(`Listening on http://${env.host === "0.0.0.0" ? "localhost" : env.host}:${port}`);
  if (env.mode === "production" && !env.publicUrl) {
    console.log(
      "PUBLIC_URL is not set: canonical links, robots.txt and the sitemap name the address each request came to, and no shared cache may keep them. Set it to the site's public address (https://…) when it goes live.",
    );
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop accepting connections, let in-flight requests finish, then close the database.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // An e-mail being sent records its outcome before the database closes.
      retention.stop();
      clock.stop();
      await outboxWorker?.stop();
      mailer?.close();
      await database.close();
    })());

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      console.log(`${signal} received: finishing in-flight requests`);
      const force = setTimeout(() => {
        console.error("Shutdown took longer than 10 s; closing remaining connections");
        server.closeAllConnections();
      }, 10_000);
      force.unref();
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("Error during shutdown:", error);
          process.exit(1);
        },
      );
    });
  }

  return { server, stop };
}

/**
 * Express's last word on an error a middleware passed on (a parameter that
 * does not decode, say): a client's mistake is one line and a 4xx, a fault of
 * ours is logged in full and answered 500.
 */
function expressErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const declared = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  const status = typeof declared === "number" && declared >= 400 && declared < 600 ? declared : 500;
  if (status < 500) console.warn(clientErrorLine(status, req.method, req.originalUrl, (error as Error).message));
  else console.error(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set("Cache-Control", "no-store").type("text/plain").send(status < 500 ? "Bad Request\n" : "Internal Server Error\n");
}

/**
 * How long a client may take, and how many may be connected at once. A slow
 * client (one header line a minute, a body trickled in) holds a socket and
 * memory; these bound both. Keep-alive outlasts the idle timeouts of common
 * load balancers (60 s on AWS ALB, nginx's upstream keepalive_timeout), so the
 * balancer, not the server, closes idle connections and never sends a request
 * on one the server has just closed.
 */
export const CONNECTION_LIMITS = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1_000,
} as const;

function applyConnectionLimits(server: Server): void {
  server.headersTimeout = CONNECTION_LIMITS.headersTimeoutMs;
  server.requestTimeout = CONNECTION_LIMITS.requestTimeoutMs;
  server.keepAliveTimeout = CONNECTION_LIMITS.keepAliveTimeoutMs;
  server.maxConnections = CONNECTION_LIMITS.maxConnections;
}

/** "::ffff:203.0.113.5" and "203.0.113.5" are one client. */
function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

// `npm run admin` runs from the same bundle (scripts/admin.js), so it shares the database code.
export { runAdminCli } from "./admin-cli";
// `npm run bench` times the image processing alone, beside the upload through the server.
export { processImage } from "~/images/process.server";

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
