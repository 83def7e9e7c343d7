import { randomBytes } from "node:crypto";
import { createContext, type EntryContext } from "react-router";
import { SplicedText } from "./compression.server";

/**
 * Caches rendered documents of routes that opt in (`handle.cacheDocument`).
 *
 * The key is the page's own loader data, resolved, so a change made by this or
 * any other instance (another process on the same PostgreSQL database) shows
 * on the next request: nothing to invalidate, nothing stale. Documents are
 * rendered with a placeholder nonce that is swapped for each response's own
 * CSP nonce, so every response still carries a fresh one, and compressed once
 * (see SplicedText) rather than on every response.
 *
 * A route that opts in promises that its document is the same for every
 * visitor: it depends on the URL, the public data (see data-version.server.ts)
 * and the configuration only, apart from per-response values (the nonce, the
 * contact form's token). The server's page cache (server/page-cache.ts) then
 * serves it without running React Router at all.
 */
export const NONCE_PLACEHOLDER = `nonce${randomBytes(24).toString("base64url")}`;

const MAX_ENTRIES = 16;
const documents = new Map<string, { key: string; document: SplicedText }>();

type Handle = { cacheDocument?: boolean } | undefined;

/** The cache key for this request, or null when its document must be rendered afresh. */
export async function documentCacheKey(request: Request, status: number, context: EntryContext): Promise<string | null> {
  if (request.method !== "GET" || status !== 200) return null;
  const url = new URL(request.url);
  // Query strings would let anyone fill the cache with copies of one page.
  if (url.search !== "") return null;
  const { matches, loaderData, actionData, errors } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const leaf = matches.at(-1);
  if (!leaf || !(context.routeModules[leaf.route.id]?.handle as Handle)?.cacheDocument) return null;

  const resolved: Record<string, unknown> = {};
  for (const [routeId, data] of Object.entries(loaderData)) {
    if (data === null || typeof data !== "object") {
      resolved[routeId] = data;
      continue;
    }
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      // A failed deferred value renders a fallback that must not be kept.
      fields[name] = value instanceof Promise ? await value.then((v: unknown) => v, () => undefined) : value;
      if (value instanceof Promise && fields[name] === undefined) return null;
    }
    resolved[routeId] = fields;
  }
  return `${url.pathname}\n${JSON.stringify(resolved)}`;
}

/** True when a document of this path is kept: its route opted in and it rendered as one. */
export function hasCachedDocument(pathname: string): boolean {
  return documents.has(pathname);
}

/**
 * Set in the load context by the server's page cache when it renders a page
 * for itself: a cacheable document's HTML, with NONCE_PLACEHOLDER for the
 * nonce, is handed over here (and nothing when the document is not cacheable).
 */
export type DocumentCapture = { html?: string };
export const documentCaptureContext = createContext<DocumentCapture | null>(null);

export function cachedDocument(pathname: string, key: string): SplicedText | undefined {
  const entry = documents.get(pathname);
  return entry?.key === key ? entry.document : undefined;
}

/** Keeps a rendered document, compressed once for all the responses that will reuse it. */
export function storeDocument(pathname: string, key: string, html: string): SplicedText {
  if (!documents.has(pathname) && documents.size >= MAX_ENTRIES) {
    documents.delete(documents.keys().next().value!);
  }
  const document = new SplicedText(html, [NONCE_PLACEHOLDER]);
  documents.set(pathname, { key, document });
  return document;
}
