import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { boot, type Booted } from "~/boot.server";
import { EnvError, loadEnv, type Env } from "~/platform/config/env.server";
import { INLINE_STYLE_HASH } from "~/platform/http/inline-style.server";
import { createLog, type Log, type ServerLog } from "~/platform/observe/log.server";
import { releaseMemoryWhenIdle } from "~/platform/observe/idle-memory.server";
import { NO_METRICS, createMetrics, type MetricsEndpoint } from "~/platform/observe/metrics.server";
import {
  NONCE_PLACEHOLDER,
  cachedPagePaths,
  createPageCache,
  documentCaptureContext,
  type DocumentCapture,
  type PageCache,
} from "~/platform/http/page-cache.server";
import { securityHeaders } from "~/platform/http/security-headers.server";
import { SiteLockBusy } from "~/platform/db/site-lock.server";
import { NEW_SQLITE_DATABASE } from "~/platform/db/new-database.server";
import { isDatabaseUnavailable } from "~/platform/db/db.server";
import type { AppServices } from "~/services";
import { createExpressApp, type LoadContextOf } from "./express-app";
import { pageOrigin, type TrustProxy } from "./page-origin";
import { requestLog, routePaths } from "./request-log";
import { answerUnusualRequest } from "./request-target";
import { handleStopSignals } from "./shutdown";

// Not `import … from "node:http"`: importing a built-in module builds its ES module view, which
// reads every export, and node:http's WebSocket loads all of undici (a tenth of a cold start).
const { createServer } = process.getBuiltinModule("node:http");

export type StartOptions = {
  /** Vite's dev server, when running `npm run dev`. */
  vite?: ViteDevServer;
};

export type RunningServer = {
  server: Server;
  stop(): Promise<void>;
};

/**
 * Starts the site: validated settings → boot (backends, migrations, services,
 * background work) → Express and React Router, with the page cache ahead of
 * them → listening, until SIGTERM or SIGINT.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The one logger and the one set of metrics, passed down from here (decision 031).
  const log = await createLog({ level: env.logLevel, pretty: env.mode === "development", isOutsideFault: isDatabaseUnavailable });
  const metrics = env.metricsToken === undefined ? undefined : await createMetrics(env.metricsToken);
  // A new SQLite database starts as a copy of the one the build migrated, beside the bundle (decision 080).
  const newSqliteDatabase = options.vite ? undefined : fileURLToPath(new URL(NEW_SQLITE_DATABASE, import.meta.url));
  // Boot runs up to its first wait on the database (the backends open, a new database's admin
  // password being hashed on the thread pool) before the build is imported: import() reads and
  // compiles the build on this thread before it returns, so it now overlaps the hash (decision 080).
  const booting = boot(env, { role: "server", log, metrics, newSqliteDatabase });
  // In production the build is loaded once (in development React Router reloads it per request),
  // while boot waits on the database and the hash (decision 066).
  const buildLoading = options.vite ? undefined : (import("virtual:react-router/server-build") as Promise<ServerBuild>);
  // Awaited below; a boot that fails first must not leave it an unhandled rejection.
  buildLoading?.catch(() => {});
  let booted: Booted;
  try {
    booted = await booting;
  } catch (error) {
    if (error instanceof SiteLockBusy) {
      // A refusal to start, like a bad setting: one plain line on stderr.
      console.error(error.message);
      return exitAfter(log, 1);
    }
    throw error;
  }
  const { services } = booted;

  const dev = Boolean(options.vite);
  const security = securityHeaders({
    dev,
    hsts: env.mode === "production",
    styleHashes: [INLINE_STYLE_HASH],
    // A CDN in front of the image bucket (PUBLIC_IMAGES_URL) serves the gallery's pictures.
    imageOrigins: env.publicImagesUrl ? [new URL(env.publicImagesUrl).origin] : [],
  });
  const build = await buildLoading;
  // From SIGTERM on, /readyz answers 503 so load balancers take this instance out, while it keeps answering.
  let draining = false;
  // A balancer asking /readyz is what makes a stop drain first (server/shutdown.ts).
  let lastReadinessCheck: number | undefined;
  const { app, loadContext, answerContactAhead } = createExpressApp({
    services,
    trustProxy: env.trustProxy,
    security,
    vite: options.vite,
    build,
    isDraining: () => draining,
    onReadinessCheck: () => (lastReadinessCheck = Date.now()),
  });
  const trust = app.get("trust proxy fn") as TrustProxy;
  const pages = build && publicPageCache(build, services, env, loadContext, trust, security);
  const begin = requestLog({ log, metrics: metrics ?? NO_METRICS, trust, knownPaths: routePaths(build) });

  const server = createServer((req, res) => {
    const record = begin(req, res);
    // A client still sending on a kept-alive connection opens a new one next time, which the balancer sends elsewhere.
    if (draining) res.setHeader("Connection", "close");
    if (answerUnusualRequest(req, res, record)) return;
    if (pages?.mayServe(req)) {
      void pages.serve(req, res, ["X-Request-Id", record.id]).then((served) => {
        if (served) return;
        res.setHeader("X-Request-Id", record.id);
        app(req, res);
      });
      return;
    }
    // The site's one hot write, ahead of Express when nothing Express does is needed (decision 083).
    if (req.method === "POST" && isContactPath(req.url) && answerContactAhead(req, res, ["X-Request-Id", record.id])) return;
    res.setHeader("X-Request-Id", record.id);
    if (metrics && isMetricsPath(req.url)) {
      answerMetrics(req, res, metrics, log);
      return;
    }
    app(req, res);
  });
  applyConnectionLimits(server, env.keepAliveTimeoutMs);
  // What start-up said (database, images, e-mail) is on stdout before the first request can be answered.
  await log.written();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  log.info(`Listening on http://${env.host === "0.0.0.0" ? "localhost" : env.host}:${port}`);
  if (env.mode === "production" && !env.publicUrl) {
    log.info(
      "PUBLIC_URL is not set: canonical links, robots.txt and the sitemap name the address each request came to, and no shared cache may keep them. Set it to the site's public address (https://…) when it goes live.",
    );
  }
  await log.written();
  // After a burst, once idle, V8 gives back what the burst grew (decision 071).
  const memory = releaseMemoryWhenIdle(({ rssBefore, rssAfter, ms }) =>
    log.debug({ rssBefore, rssAfter, ms: Math.round(ms) }, "Idle after a burst: memory given back"),
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      memory.stop();
      // Stop accepting connections, let in-flight requests finish, then close the rest. A kept-alive
      // connection whose request was in flight turns idle when it is answered: closed then, rather
      // than left open for KEEP_ALIVE_TIMEOUT_MS.
      await new Promise<void>((resolve) => {
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      });
      await booted.close();
    })());

  // SIGTERM and SIGINT, however often they come (server/shutdown.ts): drain while a balancer watches /readyz, then close.
  handleStopSignals({
    log,
    drainMs: env.shutdownDrainMs,
    lastReadinessCheck: () => lastReadinessCheck,
    startDraining: () => (draining = true),
    close: stop,
    closeAllConnections: () => server.closeAllConnections(),
    exit: (code) => exitAfter(log, code),
  });

  return { server, stop };
}

/** The log's last lines are written out before the process ends (a second at most: pino writes the rest synchronously at exit). */
async function exitAfter(log: ServerLog, code: number): Promise<never> {
  await Promise.race([log.written(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  process.exit(code);
}

function isContactPath(target: string | undefined): boolean {
  return target === "/api/contact" || target?.startsWith("/api/contact?") === true;
}

function isMetricsPath(target: string | undefined): boolean {
  return target === "/metrics" || target?.startsWith("/metrics?") === true;
}

/**
 * GET /metrics, only with METRICS_TOKEN set and sent as a bearer token
 * (401 otherwise, the same whatever was sent). Answered ahead of Express: it
 * is for the monitoring, not a page of the site.
 */
function answerMetrics(req: IncomingMessage, res: ServerResponse, metrics: MetricsEndpoint, log: Log): void {
  const headers = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed\n");
    return;
  }
  if (!metrics.authorized(req.headers.authorization)) {
    res.writeHead(401, { ...headers, "WWW-Authenticate": 'Bearer realm="metrics"', "Content-Type": "text/plain; charset=utf-8" }).end("Unauthorized\n");
    return;
  }
  metrics.text().then(
    (text) => {
      res.writeHead(200, { ...headers, "Content-Type": metrics.contentType });
      res.end(req.method === "HEAD" ? undefined : text);
    },
    (error: unknown) => {
      log.error({ err: error }, "Could not collect the metrics");
      res.writeHead(500, { ...headers, "Content-Type": "text/plain; charset=utf-8" }).end("Internal Server Error\n");
    },
  );
}

/** Public pages served ahead of Express and React Router (platform/http/page-cache.server.ts). */
function publicPageCache(
  build: ServerBuild,
  services: AppServices,
  env: Env,
  loadContext: LoadContextOf,
  trust: TrustProxy,
  security: ReturnType<typeof securityHeaders>,
): PageCache {
  const reactRouter = createReactRouterHandler(build, "production");
  const paths = cachedPagePaths(build);
  return createPageCache({
    isCachedPage: (pathname) => paths.has(pathname),
    dataVersion: services.publicVersion,
    originOf: (request) => pageOrigin(request, env.publicUrl, trust),
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
    perResponse: [(now) => services.formTokens.issue(now)],
    now: () => services.clock.now(),
  });
}

/**
 * How long a client may take, and how many may be connected at once. A slow
 * client (one header line a minute, a body trickled in) holds a socket and
 * memory; these bound both. Keep-alive (KEEP_ALIVE_TIMEOUT_MS, 65 s by
 * default) outlasts the idle timeouts of common load balancers (60 s on AWS
 * ALB and Google's, nginx's upstream keepalive_timeout), so the balancer, not
 * the server, closes idle connections and never sends a request on one the
 * server has just closed (docs/deploy.md).
 */
export const CONNECTION_LIMITS = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  maxConnections: 1_000,
} as const;

function applyConnectionLimits(server: Server, keepAliveTimeoutMs: number): void {
  server.headersTimeout = CONNECTION_LIMITS.headersTimeoutMs;
  server.requestTimeout = CONNECTION_LIMITS.requestTimeoutMs;
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.maxConnections = CONNECTION_LIMITS.maxConnections;
}
