import http from "node:http";
import type { AddressInfo } from "node:net";
import { createProxyServer } from "http-proxy-3";

/**
 * A small load balancer on loopback, as a cloud balancer or nginx with
 * health checks behaves: round robin over the instances whose GET /readyz
 * answers 200 (checked every `checkEveryMs`), keep-alive
 * connections to them, and no retries: a request that fails is the client's
 * failure, so a test sees every one. http-proxy-3 does the proxying
 * (decision 032).
 */
export type Balancer = {
  url: string;
  /** Requests sent to each target so far. */
  served: Map<string, number>;
  /** Whether each target passed its last check. */
  ready: Map<string, boolean>;
  close(): Promise<void>;
};

export async function startBalancer(targets: string[], { checkEveryMs = 100 } = {}): Promise<Balancer> {
  const ready = new Map(targets.map((target) => [target, false]));
  const served = new Map(targets.map((target) => [target, 0]));
  let closed = false;

  // An answer other than 200, or a refused connection, takes a target out at once; a check that
  // times out (a busy machine) only after three in a row, as balancers' unhealthy thresholds do.
  const slowChecks = new Map(targets.map((target) => [target, 0]));
  const check = async (target: string) => {
    try {
      const response = await fetch(`${target}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      ready.set(target, response.status === 200);
      slowChecks.set(target, 0);
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      slowChecks.set(target, timedOut ? slowChecks.get(target)! + 1 : 0);
      if (!timedOut || slowChecks.get(target)! >= 3) ready.set(target, false);
    }
  };
  await Promise.all(targets.map(check));
  const checking = Promise.all(
    targets.map(async (target) => {
      while (!closed) {
        await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
        await check(target);
      }
    }),
  );

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const proxy = createProxyServer({ agent });
  let turn = 0;
  const server = http.createServer((req, res) => {
    const live = targets.filter((target) => ready.get(target));
    if (live.length === 0) {
      res.writeHead(502, { "content-type": "text/plain" }).end("Bad Gateway: no instance is ready\n");
      return;
    }
    const target = live[turn++ % live.length]!;
    served.set(target, served.get(target)! + 1);
    proxy.web(req, res, { target }, (error: Error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`Bad Gateway: ${target}: ${error.message}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    served,
    ready,
    async close() {
      closed = true;
      await checking;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      proxy.close();
      agent.destroy();
    },
  };
}
