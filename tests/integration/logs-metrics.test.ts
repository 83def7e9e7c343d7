/**
 * The server's log and GET /metrics (decision 031), on the built server: one
 * JSON line per request with its id, an X-Request-Id believed from a trusted
 * proxy only, secrets and visitors' addresses kept out of the log, and the
 * metrics behind METRICS_TOKEN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, type TestDatabase } from "../support/backends";
import { postJson, validEnquiry } from "../support/enquiries";
import { rawExchange, rawRequest } from "../support/http";
import { startDocumentedNginx } from "../support/nginx";
import { assertBuilt, logLines, startServer, type LogLine, type SpawnedServer } from "../support/server";
import { waitFor } from "../support/wait";

const METRICS_TOKEN = "test-metrics-token-0123456789abcdef";
const ADMIN = { email: "owner@example.com", password: "a long and secret admin passphrase" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The request lines of the server's log so far. */
function requestLines(server: SpawnedServer): LogLine[] {
  return logLines(server.stdout()).filter((line) => line.msg === "request");
}

/** Waits for the request line with this id, and returns it. */
async function lineOf(server: SpawnedServer, reqId: string): Promise<LogLine> {
  await waitFor(`the log line of request ${reqId}`, () => requestLines(server).some((line) => line.reqId === reqId));
  return requestLines(server).find((line) => line.reqId === reqId)!;
}

/** A sample's value in the Prometheus text, 0 when the series is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

function scrape(server: SpawnedServer, token = METRICS_TOKEN): Promise<Response> {
  return fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
}

describe.each(backends)("logs and metrics ($name)", (backend) => {
  let testDb: TestDatabase;
  /** METRICS_TOKEN set, no TRUST_PROXY: the socket's peer is the client. */
  let direct: SpawnedServer;
  /** Behind a trusted proxy (TRUST_PROXY=loopback), no METRICS_TOKEN. */
  let proxied: SpawnedServer;

  beforeAll(async () => {
    assertBuilt();
    testDb = await backend.createDatabase({ migrated: true });
    const env = { ...testDb.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, CONTACT_RATE_LIMIT: "100" };
    [direct, proxied] = await Promise.all([startServer({ ...env, METRICS_TOKEN }), startServer({ ...env, TRUST_PROXY: "loopback" })]);
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
    await testDb?.cleanup();
  });

  it("writes one JSON line per request, with its id, method, path, status and duration, also for a page from the page cache", async () => {
    const home = await fetch(`${direct.url}/`);
    await home.arrayBuffer();
    const id = home.headers.get("x-request-id")!;
    expect(id).toMatch(UUID);
    const line = await lineOf(direct, id);
    expect(line).toMatchObject({ level: "info", method: "GET", path: "/", status: 200 });
    expect(typeof line.ms).toBe("number");
    expect(line.time, "an ISO timestamp").toMatch(/^\d{4}-\d\d-\d\dT/);

    const api = await fetch(`${direct.url}/api/projects?x=1`);
    await api.arrayBuffer();
    expect(await lineOf(direct, api.headers.get("x-request-id")!), "without the query string").toMatchObject({ path: "/api/projects", status: 200 });
    const ids = requestLines(direct).map((entry) => entry.reqId);
    expect(new Set(ids).size, "an id of its own for each request").toBe(ids.length);
  });

  // Answered ahead of Express from a client itself, by Express's route behind a proxy (decision 083): a line either way.
  it("writes an enquiry's line with the id it sends back, from a client and through a trusted proxy", async () => {
    for (const [server, headers] of [
      [direct, {}],
      [proxied, { "x-forwarded-for": "198.51.100.23", "x-request-id": "proxy-enquiry-23" }],
    ] as const) {
      const enquiry = await postJson(server.url, { ...validEnquiry, message: `An enquiry through ${server.url}` }, headers);
      expect(enquiry.status).toBe(201);
      await enquiry.arrayBuffer();
      const id = enquiry.headers.get("x-request-id")!;
      expect(id).toMatch(server === direct ? UUID : /^proxy-enquiry-23$/);
      const line = await lineOf(server, id);
      expect(line).toMatchObject({ level: "info", method: "POST", path: "/api/contact", status: 201 });
      expect(line.aborted).toBeUndefined();
    }
  });

  it("takes X-Request-Id from a trusted proxy only, and echoes the id it used", async () => {
    const sent = "proxy-7f3a.request-42";
    const fromProxy = await fetch(`${proxied.url}/healthz`, { headers: { "x-request-id": sent } });
    expect(fromProxy.headers.get("x-request-id")).toBe(sent);
    expect(await lineOf(proxied, sent)).toMatchObject({ path: "/healthz", status: 200 });

    const fromAnyone = await fetch(`${direct.url}/healthz`, { headers: { "x-request-id": sent } });
    const own = fromAnyone.headers.get("x-request-id")!;
    expect(own).toMatch(UUID);
    expect(await lineOf(direct, own)).toMatchObject({ path: "/healthz", status: 200 });
    expect(
      requestLines(direct).some((line) => line.reqId === sent),
      "the client's id is not believed",
    ).toBe(false);

    const odd = await rawExchange(proxied.port, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: two words\r\nConnection: close\r\n\r\n");
    expect(odd.text, "an id that is not one is replaced").toMatch(/^X-Request-Id: [0-9a-f-]{36}\r$/im);
  });

  it("behind nginx as docs/deploy.md sets it up, a request's id is nginx's own, never one the client chose", async () => {
    const nginx = await startDocumentedNginx(proxied.url);
    try {
      const forged = "chosen-by-the-client-42";
      const response = await fetch(`${nginx.url}/healthz`, { headers: { "x-request-id": forged } });
      await response.arrayBuffer();
      const id = response.headers.get("x-request-id")!;
      expect(id, "nginx's $request_id: 32 hex digits").toMatch(/^[0-9a-f]{32}$/);
      expect(await lineOf(proxied, id)).toMatchObject({ path: "/healthz", status: 200 });
      expect(
        requestLines(proxied).some((line) => line.reqId === forged),
        "the client's id is not believed",
      ).toBe(false);
    } finally {
      await nginx.close();
    }
  });

  it("keeps passwords, cookies, visitors' addresses and e-mail addresses out of the log", async () => {
    const visitorIp = "203.0.113.77";
    const cookieValue = "cookie-value-that-must-not-be-logged";
    const wrongPassword = "a-wrong-but-secret-guess-1234";
    const strangerEmail = "stranger.visitor@example.org";
    const before = proxied.stdout().length;
    const proxiedHeaders = { "x-forwarded-for": visitorIp, cookie: `__Host-admin_session=${cookieValue}` };

    for (const [email, password] of [
      [ADMIN.email, wrongPassword],
      [strangerEmail, wrongPassword],
      [ADMIN.email, ADMIN.password],
    ] as const) {
      const signIn = await rawRequest(proxied.port, {
        path: "/admin/sign-in",
        headers: { ...proxiedHeaders, origin: proxied.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, password }).toString(),
      });
      expect([302, 401]).toContain(signIn.status);
    }
    const enquiry = await postJson(proxied.url, { ...validEnquiry, message: "Please call me about my flat." }, proxiedHeaders);
    expect(enquiry.status).toBe(201);
    const search = await fetch(`${proxied.url}/admin/data-requests?email=${encodeURIComponent(validEnquiry.email)}`, { headers: proxiedHeaders });
    await search.arrayBuffer();

    await waitFor(
      "the sign-ins in the log",
      () => logLines(proxied.stdout().slice(before)).filter((line) => /signed in|Sign-in failed/.test(line.msg)).length === 3,
    );
    await waitFor("the enquiry's request line", () => requestLines(proxied).some((line) => line.path === "/api/contact"));
    await waitFor("the search's request line", () => requestLines(proxied).some((line) => line.path === "/admin/data-requests"));
    const output = proxied.stdout().slice(before) + proxied.stderr();
    for (const secret of [visitorIp, cookieValue, wrongPassword, ADMIN.password, strangerEmail, validEnquiry.email]) {
      expect(output, secret).not.toContain(secret);
    }
    const signIns = logLines(output).filter((line) => /signed in|Sign-in failed/.test(line.msg));
    // The visitor's address as a keyed hash: the same visitor, the same tag, and never the address.
    expect(new Set(signIns.map((line) => line.ip)).size).toBe(1);
    expect(signIns[0]!.ip).toMatch(/^ip#[0-9a-f]{12}$/);
    expect(signIns.find((line) => line.email !== undefined)?.email).toMatch(/^email#[0-9a-f]{12}$/);
  });

  it("logs a missing page and a malformed path as one info line each, without a stack trace", async () => {
    const missing = `/no-such-page-${Date.now()}`;
    const before = direct.stdout().length + direct.stderr().length;
    expect((await fetch(`${direct.url}${missing}`)).status).toBe(404);
    expect((await rawExchange(direct.port, `GET ${missing}/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).status).toBe(400);
    const output = () => (direct.stdout() + direct.stderr()).slice(before);
    await waitFor("both requests in the log", () => output().split(missing).length > 2);
    expect(
      output()
        .split("\n")
        .filter((line) => line.includes(missing)),
    ).toHaveLength(2);
    // In the order the responses were done, which need not be the order they were asked for.
    const lines = logLines(output()).filter((line) => String(line.path).startsWith(missing));
    expect(lines.sort((a, b) => Number(a.status) - Number(b.status))).toMatchObject([
      { level: "info", msg: "request", method: "GET", path: `${missing}/%E0%A4%A`, status: 400, reason: "malformed percent-encoding" },
      { level: "info", msg: "request", method: "GET", path: missing, status: 404, reason: "Not Found" },
    ]);
    expect(output()).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("has no /metrics without METRICS_TOKEN, and with it answers only the bearer of the token", async () => {
    expect((await scrape(proxied)).status).toBe(404);

    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(0, -1)}`, METRICS_TOKEN, "Basic abc"]) {
      const response = await fetch(`${direct.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain("http_requests_total");
    }

    const response = await scrape(direct);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    for (const name of [
      "http_requests_total",
      "http_request_duration_seconds",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "email_outbox_jobs",
      "email_outbox_oldest_job_age_seconds",
      "email_send_failures_total",
      "enquiries_total",
    ]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
    expect(text).toMatch(/^http_requests_total\{route="\/healthz",method="GET",status="200"\} [1-9]/m);
    expect(sample(text, "email_outbox_jobs"), "e-mail is off: nothing queued").toBe(0);
  });

  it("counts enquiries accepted and caught as spam, and the requests that brought them", async () => {
    const before = await (await scrape(direct)).text();
    const accepted = await postJson(direct.url, { ...validEnquiry, message: "A real enquiry about three flats." });
    expect(accepted.status).toBe(201);
    const spam = await postJson(direct.url, { ...validEnquiry, message: "Another one.", website: "https://spam.example" });
    expect(spam.status, "answered like a real one").toBe(201);
    await Promise.all([accepted.arrayBuffer(), spam.arrayBuffer()]);
    // A request is counted when its response is done, which may be a moment after the client has it.
    const posts = 'http_requests_total{route="/api/contact",method="POST",status="201"}';
    let after = "";
    await waitFor("both POSTs counted", async () => {
      after = await (await scrape(direct)).text();
      return sample(after, posts) - sample(before, posts) >= 2;
    });

    expect(sample(after, 'enquiries_total{outcome="accepted"}') - sample(before, 'enquiries_total{outcome="accepted"}')).toBe(1);
    expect(sample(after, 'enquiries_total{outcome="spam"}') - sample(before, 'enquiries_total{outcome="spam"}')).toBe(1);
    expect(sample(after, posts) - sample(before, posts)).toBe(2);
    const timed = 'http_request_duration_seconds_count{route="/api/contact"}';
    expect(sample(after, timed) - sample(before, timed)).toBe(2);
    // Paths the app does not have share one label, so a scan cannot multiply the series.
    await (await fetch(`${direct.url}/wp-login.php?x=${Date.now()}`)).arrayBuffer();
    let scanned = "";
    await waitFor("the scan counted", async () => {
      scanned = await (await scrape(direct)).text();
      return /^http_requests_total\{route="other",method="GET",status="404"\} [1-9]/m.test(scanned);
    });
    expect(scanned).not.toContain("wp-login");
  });
});
