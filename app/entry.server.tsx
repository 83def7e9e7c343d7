import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, isRouteErrorResponse, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from "react-router";
import { isSignInPage } from "~/auth/require-admin.server";
import { servicesContext } from "~/services";
import { cspNonceContext, requestContext } from "~/platform/http/context";
import { noteDatabaseUnavailable } from "~/platform/db/database-busy.server";
import { InlineStyleContext } from "~/platform/http/inline-style";
import type { Log } from "~/platform/observe/log.server";
import { INLINE_STYLE } from "~/platform/http/inline-style.server";
import { NONCE_PLACEHOLDER, documentCaptureContext, encodeDocument, isCacheableDocument } from "~/platform/http/page-cache.server";

export const streamTimeout = 5_000;

/**
 * What React Router reports. A request the client got wrong (no such page, a
 * method the route does not take) is the request's one log line, with the
 * reason: anyone can send those by the thousand, and a stack trace each would
 * fill the disk and bury real faults. Everything else is a fault of ours,
 * logged in full with the request's id.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // The database could not serve it in time: answered 503, one line (platform/db/database-busy.server.ts).
  if (noteDatabaseUnavailable(error, context)) return;
  const info = context.get(requestContext);
  if (isRouteErrorResponse(error) && error.status < 500) {
    if (error.statusText) info.refused(error.statusText);
    return;
  }
  context.get(servicesContext).log.error({ err: error, reqId: info.requestId || undefined }, "Request failed");
};

/**
 * Renders every page completely before sending it (onAllReady), for people and
 * crawlers alike: the page is small, its data comes from a local query, and a
 * complete document works without JavaScript, where a streamed one would leave
 * deferred parts hidden until a script swapped them in.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (isSignInPage(request, responseStatusCode, routerContext.staticHandlerContext.errors)) responseStatusCode = 200;
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(cspNonceContext);
  const { log } = loadContext.get(servicesContext);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  // A page the cache keeps (platform/http/page-cache.server.ts) varies with the encoding it is sent in.
  const cacheable = await isCacheableDocument(request, responseStatusCode, routerContext);
  if (cacheable) responseHeaders.append("Vary", "Accept-Encoding");
  if (!cacheable) return render(routerContext, request.url, nonce, responseStatusCode, responseHeaders, log);

  const capture = loadContext.get(documentCaptureContext);
  if (capture) {
    // The page cache renders for itself, and splices in its own values and encoding.
    const rendered = await render(routerContext, request.url, NONCE_PLACEHOLDER, responseStatusCode, responseHeaders, log);
    const html = await text(rendered.body!);
    if (rendered.status === 200) capture.html = html;
    return new Response(html, rendered);
  }
  // A request the page cache left to the full pipeline (a cookie, a query string) gets the
  // document rendered afresh, in the encoding and with the headers the cache would send.
  const rendered = await render(routerContext, request.url, nonce, responseStatusCode, responseHeaders, log);
  const body = encodeDocument(await text(rendered.body!), request.headers.get("accept-encoding"), responseHeaders);
  return new Response(new Uint8Array(body), { status: rendered.status, headers: responseHeaders });
}

function render(routerContext: EntryContext, url: string, nonce: string, initialStatus: number, headers: Headers, log: Log): Promise<Response> {
  let status = initialStatus;
  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const page = (
      <InlineStyleContext value={INLINE_STYLE}>
        <ServerRouter context={routerContext} url={url} nonce={nonce} />
      </InlineStyleContext>
    );
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      // Without this React still sends a large completed boundary (the
      // gallery) after the page, with a script to move it into place, which
      // a browser without JavaScript never runs.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        log.error({ err: error }, "Could not render a page");
      },
    });
  });
}
