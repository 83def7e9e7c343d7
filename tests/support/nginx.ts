import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createProxyServer } from "http-proxy-3";
import { repoRoot } from "./server";

/**
 * A stand-in for the nginx of docs/deploy.md: a proxy that sends upstream the
 * headers that the document's `location /` block sets with
 * `proxy_set_header`, as nginx does (a header it sets replaces the client's
 * header of that name; an empty value removes it). It reads the document, so
 * a test through it checks what the document tells people to run. nginx's
 * variables it knows: $host, $scheme (https: the TLS ends at nginx),
 * $proxy_add_x_forwarded_for and $request_id (32 hex digits); any other
 * fails, so a change to the document is noticed here.
 */
export type DocumentedNginx = {
  url: string;
  /** The headers the document sets, as written there. */
  directives: ReadonlyArray<[name: string, value: string]>;
  close(): Promise<void>;
};

/** The `proxy_set_header` lines of the nginx block in docs/deploy.md. */
export function documentedProxyHeaders(): Array<[string, string]> {
  const doc = readFileSync(path.join(repoRoot, "docs/deploy.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/deploy.md has no nginx block");
  return [...block.matchAll(/^\s*proxy_set_header\s+(\S+)\s+("[^"]*"|\S+);/gm)].map((match) => [match[1]!, match[2]!.replace(/^"(.*)"$/, "$1")]);
}

function nginxValue(expression: string, request: http.IncomingMessage): string {
  return expression.replace(/\$(\w+)/g, (_, variable: string) => {
    switch (variable) {
      case "host":
        return String(request.headers.host ?? "").replace(/:\d+$/, "");
      case "scheme":
        return "https";
      case "proxy_add_x_forwarded_for": {
        const forwarded = request.headers["x-forwarded-for"];
        const peer = request.socket.remoteAddress ?? "";
        return forwarded ? `${String(forwarded)}, ${peer}` : peer;
      }
      case "request_id":
        return randomBytes(16).toString("hex");
      default:
        throw new Error(`docs/deploy.md uses $${variable}, which this stand-in for nginx does not know`);
    }
  });
}

export async function startDocumentedNginx(target: string): Promise<DocumentedNginx> {
  const directives = documentedProxyHeaders();
  const agent = new http.Agent({ keepAlive: true });
  const proxy = createProxyServer({ agent, target });
  proxy.on("proxyReq", (proxyRequest, request) => {
    for (const [name, expression] of directives) {
      const value = nginxValue(expression, request);
      if (value === "") proxyRequest.removeHeader(name);
      else proxyRequest.setHeader(name, value);
    }
  });
  const server = http.createServer((request, response) => {
    proxy.web(request, response, {}, (error: Error) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`Bad Gateway: ${error.message}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    directives,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      proxy.close();
      agent.destroy();
    },
  };
}
