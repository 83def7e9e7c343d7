import { createHash, timingSafeEqual } from "node:crypto";

/**
 * What the server counts for `GET /metrics` (Prometheus text, prom-client;
 * docs/decisions/031). Only made when METRICS_TOKEN is set: without it every
 * call here is a no-op and nothing is collected.
 */
export type Metrics = {
  /** A request answered (or given up) after `seconds`, by route (a bounded set of labels, see routeLabel). */
  request(route: string, method: string, status: number, seconds: number): void;
  /** An enquiry stored: in the inbox, held in a flood (decision 037), or caught as spam (filed under Spam). */
  enquiry(outcome: "accepted" | "held" | "spam"): void;
  /** An e-mail the mail server did not take (one attempt). */
  sendFailed(): void;
  /** How the outbox stands, read when scraped. */
  watchOutbox(read: () => Promise<OutboxBacklog>): void;
};

export type OutboxBacklog = { jobs: number; oldestAgeSeconds: number };

export type MetricsEndpoint = Metrics & {
  /** True when `authorization` carries the bearer token. */
  authorized(authorization: string | undefined): boolean;
  contentType: string;
  text(): Promise<string>;
};

export const NO_METRICS: Metrics = {
  request() {},
  enquiry() {},
  sendFailed() {},
  watchOutbox() {},
};

/** Methods as labels: the ones the site answers, anything else as "other" (a client chooses the method). */
const METHOD_LABELS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * prom-client is loaded only when METRICS_TOKEN is set: a site without metrics does not pay for it at start (decision 039).
 * Its parts, not its index: the index also loads its Pushgateway, which loads node:https and node:tls, and
 * Node then parses its root certificates: ~2.4 MB of RSS at start for a client the server never uses (decision 081).
 */
export async function createMetrics(token: string): Promise<MetricsEndpoint> {
  const [{ default: Registry }, { default: Counter }, { default: Gauge }, { default: Histogram }, { default: collectDefaultMetrics }] = await Promise.all([
    import("prom-client/lib/registry.js"),
    import("prom-client/lib/counter.js"),
    import("prom-client/lib/gauge.js"),
    import("prom-client/lib/histogram.js"),
    import("prom-client/lib/defaultMetrics.js"),
  ]);
  const registry = new Registry();
  // Event loop lag, memory (heap, RSS), CPU, handles, GC: prom-client's defaults for Node.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: "http_requests_total",
    help: "Requests answered, by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from the request's arrival to the last byte of its response, by route",
    labelNames: ["route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const enquiries = new Counter({
    name: "enquiries_total",
    help: "Enquiries stored, by outcome: accepted (the inbox), held (over CONTACT_SITE_LIMIT, in a flood) or spam (filed under Spam)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  // Every outcome is shown from the start, at 0.
  for (const outcome of ["accepted", "held", "spam"]) enquiries.inc({ outcome }, 0);
  const failedSends = new Counter({
    name: "email_send_failures_total",
    help: "E-mail sending attempts the mail server did not accept",
    registers: [registry],
  });
  let readOutbox: (() => Promise<OutboxBacklog>) | undefined;
  let backlog: Promise<OutboxBacklog | undefined> | undefined;
  /** One read of the outbox per scrape, for both gauges. */
  const outboxNow = () =>
    (backlog ??= (readOutbox?.() ?? Promise.resolve(undefined)).catch(() => undefined).finally(() => setImmediate(() => (backlog = undefined))));
  new Gauge({
    name: "email_outbox_jobs",
    help: "E-mails waiting to be sent (queued, being sent, or failed and due again)",
    registers: [registry],
    async collect() {
      const now = await outboxNow();
      if (now) this.set(now.jobs);
    },
  });
  new Gauge({
    name: "email_outbox_oldest_job_age_seconds",
    help: "Age of the oldest e-mail waiting to be sent (0 when none is)",
    registers: [registry],
    async collect() {
      const now = await outboxNow();
      if (now) this.set(now.oldestAgeSeconds);
    },
  });

  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  return {
    request(route, method, status, seconds) {
      requests.inc({ route, method: METHOD_LABELS.has(method) ? method : "other", status });
      durations.observe({ route }, seconds);
    },
    enquiry: (outcome) => enquiries.inc({ outcome }),
    sendFailed: () => failedSends.inc(),
    watchOutbox(read) {
      readOutbox = read;
    },
    authorized(authorization) {
      if (authorization === undefined) return false;
      // Digests of equal length: the comparison takes as long whatever was sent.
      return timingSafeEqual(createHash("sha256").update(authorization).digest(), expected);
    },
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}

/**
 * A request's route as a metric label: one of the app's own paths (`known`,
 * from the build), a family of files ("/images/:name", "/assets/*"), or
 * "other" (a 404, a probe). Anyone can send any path, so the label never is
 * the path itself unless the app has it.
 */
export function routeLabel(pathname: string, known: ReadonlySet<string>): string {
  const path = pathname.endsWith(".data") ? pathname.slice(0, -5) || "/" : pathname;
  if (known.has(path)) return path;
  if (path.startsWith("/images/")) return "/images/:name";
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path === "/healthz" || path === "/api/projects" || path === "/metrics") return path;
  return "other";
}
