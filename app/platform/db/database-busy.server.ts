import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { databaseFailureText } from "./database-health.server";
import { isDatabaseUnavailable } from "./db.server";
import { requestContext } from "../http/context";

/**
 * A request the database could not serve in time (a full pool, a statement
 * over its timeout, a server restarting: db.server.ts's isDatabaseUnavailable)
 * is answered 503 with Retry-After, so a client or load balancer tries again
 * later, and logged as one line: under load there may be hundreds, and a
 * stack trace each would bury the cause. React Router reports the error to
 * entry.server.tsx's handleError, which notes it here; the root route's
 * middleware then turns the response it got into the 503.
 */
export const DATABASE_BUSY_MESSAGE = "The site is busy. Please try again in a moment.";
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 5;

type Outcome = { unavailable: boolean };

const outcomeContext = createContext<Outcome | null>(null);

/** From handleError: true (and logged in one line) when `error` says the database was unavailable. */
export function noteDatabaseUnavailable(error: unknown, context: Readonly<RouterContextProvider> | undefined): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const outcome = context?.get(outcomeContext);
  if (outcome) outcome.unavailable = true;
  // The request's own line (server/request-log.ts) carries the reason: one line, no stack.
  context?.get(requestContext).refused(databaseFailureText(error));
  return true;
}

/** The root route's middleware: a response to a request the database could not serve becomes a 503 with Retry-After. */
export const databaseBusyMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const outcome: Outcome = { unavailable: false };
  context.set(outcomeContext, outcome);
  const response = await next();
  if (!outcome.unavailable) return response;
  return databaseBusyResponse(new URL(request.url).pathname, response);
};

/** JSON for the API, the page React Router rendered (its error page) for the rest, with the status and headers a retry needs. */
export function databaseBusyResponse(pathname: string, rendered?: Response): Response {
  const headers = new Headers(rendered?.headers);
  headers.set("Retry-After", String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
  if (pathname.startsWith("/api/") || !rendered) {
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    headers.set("Content-Type", "application/json; charset=utf-8");
    void rendered?.body?.cancel();
    return new Response(JSON.stringify({ error: DATABASE_BUSY_MESSAGE }), { status: 503, headers });
  }
  return new Response(rendered.body, { status: 503, headers });
}
