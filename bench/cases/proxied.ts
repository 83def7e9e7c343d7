/**
 * GET / via proxy (issue 13, point 6): a second app on the bench's data as it runs behind
 * nginx, TRUST_PROXY=loopback and no PUBLIC_URL, driven with the headers nginx adds.
 */
import { fetchRaw } from "../lib/measure.ts";
import { startAppServer, type AppServer } from "../lib/server.ts";
import { PROXY_HEADERS } from "./load.ts";

export async function startProxiedServer(nodeArgs: readonly string[], env: NodeJS.ProcessEnv, homeHeaders: Record<string, string>): Promise<AppServer> {
  const server = await startAppServer(
    nodeArgs,
    (port) => ({ ...env, PORT: String(port), TRUST_PROXY: "loopback", PUBLIC_URL: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" }),
    { what: "The proxied server" },
  );
  // It must serve the page for the forwarded origin, as a browser behind the proxy sees it.
  const page = await fetchRaw(`${server.url}/`, { ...homeHeaders, ...PROXY_HEADERS, "accept-encoding": "identity" });
  if (page.status !== 200 || !page.body.toString().includes('href="https://www.example-lettings.co.uk/"')) {
    throw new Error(`GET / via the proxy answered ${page.status} without the forwarded origin in its canonical link`);
  }
  return server;
}
