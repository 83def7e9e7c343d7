/**
 * GET / without its log line and metrics (issue 19, point 5): a second app on the bench's data
 * with LOG_LEVEL=warn and no METRICS_TOKEN, driven like GET / right after it, so that the
 * difference in server CPU per request is what the request's line and its metrics cost.
 */
import { startAppServer, type AppServer } from "../lib/server.ts";

export function startQuietServer(nodeArgs: readonly string[], env: NodeJS.ProcessEnv): Promise<AppServer> {
  return startAppServer(nodeArgs, (port) => ({ ...env, PORT: String(port), LOG_LEVEL: "warn", METRICS_TOKEN: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" }), {
    what: "The server without its log and metrics",
  });
}
