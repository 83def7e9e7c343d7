import { createServer, type Server } from "node:http";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { boot, type Booted } from "~/boot.server";
import { EnvError, loadEnv, type Env } from "~/platform/env.server";
import { INLINE_STYLE_HASH } from "~/platform/inline-style.server";
import { publicDataVersion } from "~/platform/data-version.server";
import {
  NONCE_PLACEHOLDER,
  cachedPagePaths,
  createPageCache,
  documentCaptureContext,
  type DocumentCapture,
  type PageCache,
} from "~/platform/page-cache.server";
import { securityHeaders } from "~/platform/security-headers.server";
import { SiteLockBusy } from "~/platform/site-lock.server";
import type { AppServices } from "~/services";
import { createExpressApp, type LoadContextOf } from "./express-app";
import { pageOrigin, type TrustProxy } from "./page-origin";
import { answerUnusualRequest } from "./request-target";

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
 * them → listening, until SIGTERM.
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
  let booted: Booted;
  try {
    booted = await boot(env, { role: "server" });
  } catch (error) {
    if (error instanceof SiteLockBusy) {
      console.error(error.message);
      process.exit(1);
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
  // In production the build is loaded once (in development React Router reloads it per request).
  const build = dev ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  // From SIGTERM on, /readyz answers 503 so load balancers take this instance out, while it keeps answering.
  let draining = false;
  const { app, loadContext } = createExpressApp({
    services,
    trustProxy: env.trustProxy,
    security,
    vite: options.vite,
    build,
    isDraining: () => draining,
  });
  const pages = build && publicPageCache(build, services, env, loadContext, app.get("trust proxy fn") as TrustProxy, security);

  const server = createServer((req, res) => {
    // A client still sending on a kept-alive connection opens a new one next time, which the balancer sends elsewhere.
    if (draining) res.setHeader("Connection", "close");
    if (answerUnusualRequest(req, res)) return;
    if (!pages?.mayServe(req)) {
      app(req, res);
      return;
    }
    void pages.serve(req, res).then((served) => served || app(req, res));
  });
  applyConnectionLimits(server, env.keepAliveTimeoutMs);
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
      // Stop accepting connections, let in-flight requests finish, then close the rest.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await booted.close();
    })());

  // SIGTERM (an orchestrator, a rolling restart): drain first, so that no request is sent to a closed port.
  // SIGINT (Ctrl-C at a terminal): nobody balances traffic to it, stop at once.
  const shutDown = async (drainMs: number) => {
    draining = true;
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    console.log("Closing: finishing in-flight requests and e-mails being sent");
    const force = setTimeout(() => {
      console.error(`Requests still running ${FORCE_CLOSE_AFTER_MS / 1000} s after closing; closing their connections`);
      server.closeAllConnections();
    }, FORCE_CLOSE_AFTER_MS);
    force.unref();
    await stop();
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      const drainMs = signal === "SIGTERM" ? env.shutdownDrainMs : 0;
      console.log(
        drainMs > 0
          ? `${signal} received: /readyz answers 503; still answering requests for ${drainMs} ms (SHUTDOWN_DRAIN_MS)`
          : `${signal} received: finishing in-flight requests`,
      );
      shutDown(drainMs).then(
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

/** Public pages served ahead of Express and React Router (platform/page-cache.server.ts). */
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
    dataVersion: () => publicDataVersion(services.db),
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

/** After the drain, how long in-flight requests may take before their connections are closed. */
const FORCE_CLOSE_AFTER_MS = 10_000;

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
