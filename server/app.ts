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
  const security = securityHeaders({ dev, hsts: env.mode === "production", styleHashes: [INLINE_STYLE_HASH] });
  // In production the build is loaded once (in development React Router reloads it per request).
  const build = dev ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const { app, loadContext } = createExpressApp({ services, trustProxy: env.trustProxy, security, vite: options.vite, build });
  const pages = build && publicPageCache(build, services, env, loadContext, app.get("trust proxy fn") as TrustProxy, security);

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
      // Stop accepting connections, let in-flight requests finish, then close the rest.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await booted.close();
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
