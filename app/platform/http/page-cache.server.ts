import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { createContext, type EntryContext, type ServerBuild } from "react-router";
import { SplicedText, acceptedEncodings, acceptsGzip, type Encoding } from "./compression.server";
import { newNonce, type SecurityHeaders } from "./security-headers.server";

/**
 * The one cache of public pages (docs/decisions/024), served ahead of Express
 * and React Router.
 *
 * A page whose route says so (`handle.cacheDocument`) is the same for every
 * visitor but for per-response values. This cache renders it once per
 * version of the public data, through React Router, and then answers GET and
 * HEAD for it with a database read of one number: the version, which every
 * write to the public tables changes in its own transaction, whichever
 * instance or tool makes it. Each response still gets its own nonce (in the
 * CSP header and on every script) and its own form token, spliced into the
 * document compressed once, gzip and Brotli (compression.server.ts).
 *
 * Anything it is unsure of goes to the full pipeline instead, which renders
 * afresh: other methods, requests carrying a cookie or credentials, unusual
 * Host headers, and any failure. A query string is not: a cached page never
 * reads one (a route that does must not set `cacheDocument`), so `/terms?x=1`
 * is `/terms`, and nobody renders a page afresh by adding one.
 */

/** Stands for the nonce in a kept document: each response's own nonce is spliced in its place. */
export const NONCE_PLACEHOLDER = `nonce${randomBytes(24).toString("base64url")}`;

/**
 * Set in the load context when the cache renders a page for itself:
 * entry.server.tsx hands a cacheable document's HTML over here, rendered with
 * NONCE_PLACEHOLDER for the nonce (and nothing when it is not cacheable).
 */
export type DocumentCapture = { html?: string };
export const documentCaptureContext = createContext<DocumentCapture | null>(null);

type Handle = { cacheDocument?: boolean } | undefined;

/**
 * A document the cache may keep: a GET with no query string (which would let
 * anyone fill the cache with copies of one page), answered 200 with no action
 * data or errors, by a route that opts in, whose deferred data all arrived (a
 * failed one renders a fallback, which must not be kept).
 */
export async function isCacheableDocument(request: Request, status: number, context: EntryContext): Promise<boolean> {
  if (request.method !== "GET" || status !== 200 || new URL(request.url).search !== "") return false;
  const { matches, actionData, errors, loaderData } = context.staticHandlerContext;
  const leaf = matches.at(-1);
  if (actionData || errors || !leaf || !(context.routeModules[leaf.route.id]?.handle as Handle)?.cacheDocument) return false;
  const degraded = Object.values(loaderData).some(
    (data) => data !== null && typeof data === "object" && Object.hasOwn(data, "degraded") && (data as { degraded: unknown }).degraded === true,
  );
  if (degraded) return false;
  const deferred = Object.values(loaderData).flatMap((data) =>
    data !== null && typeof data === "object" ? Object.values(data as Record<string, unknown>).filter((value) => value instanceof Promise) : [],
  );
  const settled = await Promise.allSettled(deferred);
  return settled.every((outcome) => outcome.status === "fulfilled");
}

/** A kept page's body, once, in the encoding the cache sends (gzip when accepted), with its length in `headers`. */
export function encodeDocument(html: string, acceptEncoding: string | null | undefined, headers: Headers): Buffer {
  const gzip = acceptsGzip(acceptEncoding);
  const body = gzip ? gzipSync(html, { level: 9 }) : Buffer.from(html);
  if (gzip) headers.set("Content-Encoding", "gzip");
  headers.set("Content-Length", String(body.length));
  return body;
}

/** The paths of the routes that opt in, from the build: "/", "/fees". Routes with parameters are left out. */
export function cachedPagePaths(build: Pick<ServerBuild, "routes">): Set<string> {
  const paths = new Set<string>();
  for (const route of Object.values(build.routes)) {
    if (!route || !(route.module.handle as Handle)?.cacheDocument) continue;
    const segments: string[] = [];
    for (let at: typeof route | undefined = route; at; at = at.parentId ? build.routes[at.parentId] : undefined) {
      if (at.path) segments.unshift(at.path);
    }
    const path = `/${segments.join("/")}`.replace(/\/+/g, "/");
    if (!/[:*]/.test(path)) paths.add(path);
  }
  return paths;
}

/** A request target without its query string: the key of a cached page. */
function pathOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

export type PageCacheOptions = {
  /** The paths whose documents are kept (cachedPagePaths). */
  isCachedPage(pathname: string): boolean;
  /** The public data's version (data-version.server.ts). */
  dataVersion(): Promise<number>;
  /** The origin pages are rendered for: PUBLIC_URL, else the request's; undefined: not served here. */
  originOf(request: IncomingMessage): string | undefined;
  /**
   * Renders `url` through React Router with NONCE_PLACEHOLDER as its nonce:
   * the HTML and the headers React Router answered, or undefined when the
   * document is not one to keep.
   */
  render(url: string): Promise<{ html: string; headers: Headers } | undefined>;
  securityHeaders: SecurityHeaders;
  /**
   * Values a page carries that must be fresh in every response (the contact
   * form's token): the value for a response made at `now`. A value that is
   * the same across a render is taken out of the document and filled in again
   * on each response.
   */
  perResponse: ReadonlyArray<(now: Date) => Promise<string>>;
  /** The time per-response values are made for (the database's clock); the system's by default. */
  now?: () => Date;
};

type Entry = {
  version: number;
  document: SplicedText;
  /** React Router's headers (Content-Type, Vary…), alternating names and values. */
  headers: string[];
};

/** Enough for one site under a few host names; past it the oldest is dropped (and rendered again if asked for). */
const MAX_ENTRIES = 16;
/** A render straddling a change of a per-response value (a new second) is done again, this many times at most. */
const RENDER_ATTEMPTS = 3;

export type PageCache = {
  /**
   * Answers the request and resolves true, or resolves false without touching
   * it. `extraHeaders` (names and values, alternating: the request's id) go
   * with the answer.
   */
  serve(request: IncomingMessage, response: ServerResponse, extraHeaders?: readonly string[]): Promise<boolean>;
  /** Cheap, synchronous: could serve() answer this request? */
  mayServe(request: IncomingMessage): boolean;
};

export function createPageCache(options: PageCacheOptions): PageCache {
  const entries = new Map<string, Entry>();
  const refreshes = new Map<string, { version: number; entry: Promise<Entry | undefined> }>();
  const now = options.now ?? (() => new Date());
  const placeholders = [NONCE_PLACEHOLDER, ...options.perResponse.map(() => `value${randomBytes(24).toString("base64url")}`)];

  function mayServe(request: IncomingMessage): boolean {
    const { method, url, headers } = request;
    return (
      (method === "GET" || method === "HEAD") &&
      url !== undefined &&
      // Whatever depends on the visitor is the full pipeline's business.
      headers.cookie === undefined &&
      headers.authorization === undefined &&
      options.isCachedPage(pathOf(url))
    );
  }

  async function render(url: string, version: number): Promise<Entry | undefined> {
    for (let attempt = 0; attempt < RENDER_ATTEMPTS; attempt++) {
      const before = await Promise.all(options.perResponse.map((valueAt) => valueAt(now())));
      const rendered = await options.render(url);
      // A cookie is meant for one visitor: such a document is not everyone's.
      if (!rendered || rendered.headers.has("set-cookie")) return undefined;
      const after = await Promise.all(options.perResponse.map((valueAt) => valueAt(now())));
      if (before.some((value, i) => value !== after[i])) continue;
      let html = rendered.html;
      before.forEach((value, i) => {
        if (value !== "") html = html.replaceAll(value, placeholders[i + 1]!);
      });
      const headers: string[] = [];
      for (const [name, value] of rendered.headers) {
        // Set per response, for its encoding.
        if (name !== "content-length" && name !== "content-encoding") headers.push(name, value);
      }
      // Each response's values are as long as these: the compressed forms are made for their lengths.
      const samples = [newNonce(), ...before];
      return { version, document: await SplicedText.prepare(html, placeholders, samples), headers };
    }
    return undefined;
  }

  /** The entry for `url` at `version`: kept, being rendered, or rendered now (once for all who ask meanwhile). */
  function entryFor(url: string, version: number): Promise<Entry | undefined> {
    const kept = entries.get(url);
    if (kept && kept.version >= version) return Promise.resolve(kept);
    // A render that read this version or a later one shows data at least as new as this request's.
    const pending = refreshes.get(url);
    if (pending && pending.version >= version) return pending.entry;
    const entry = render(url, version).then((rendered) => {
      const current = entries.get(url);
      if (rendered && (!current || current.version <= version)) {
        entries.delete(url);
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(url, rendered);
      }
      return rendered;
    });
    const refresh = { version, entry };
    refreshes.set(url, refresh);
    const forget = () => {
      if (refreshes.get(url) === refresh) refreshes.delete(url);
    };
    entry.then(forget, forget);
    return entry;
  }

  async function serve(request: IncomingMessage, response: ServerResponse, extraHeaders: readonly string[] = []): Promise<boolean> {
    if (!mayServe(request)) return false;
    const origin = options.originOf(request);
    if (origin === undefined) return false;
    const url = `${origin}${pathOf(request.url!)}`;
    let body: Buffer | Buffer[];
    let headers: string[];
    try {
      // Read before any render it may start: that render then shows data at least this new.
      const entry = await entryFor(url, await options.dataVersion());
      if (!entry) return false;
      const at = now();
      const values = [newNonce(), ...(await Promise.all(options.perResponse.map((valueAt) => valueAt(at))))];
      // The client's best encoding the page has ready (Brotli is made after gzip); else none.
      let encoding: Encoding | undefined;
      let encoded: { pieces: Buffer[]; length: number } | undefined;
      for (const accepted of acceptedEncodings(request.headers["accept-encoding"])) {
        encoded = entry.document.encode(accepted, values);
        if (encoded) {
          encoding = accepted;
          break;
        }
      }
      body = encoded?.pieces ?? entry.document.identity(values);
      headers = [...options.securityHeaders.forNonce(values[0]!), ...entry.headers, ...extraHeaders];
      if (encoding) headers.push("Content-Encoding", encoding);
      headers.push("Content-Length", String(encoded?.length ?? (body as Buffer).length));
    } catch {
      // The database or the render failed: the full pipeline answers, and reports it.
      return false;
    }
    // A client that left meanwhile needs no answer from anyone.
    if (response.destroyed) return true;
    response.writeHead(200, headers);
    if (request.method === "HEAD") response.end();
    else if (Array.isArray(body)) {
      // Written together: Node corks the socket until the end of this tick.
      for (const piece of body) response.write(piece);
      response.end();
    } else response.end(body);
    return true;
  }

  return { serve, mayServe };
}
