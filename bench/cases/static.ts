/**
 * static / (issue 6, point 6) and nginx / (issue 19, point 5): the exact bytes and headers
 * the app sent for GET /, served by bench/static-server.ts (node:http, no Express) and by
 * Debian's nginx, each in its own process: the references GET / is measured against.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { RESULTS_DIR, ROOT } from "../lib/config.ts";
import { fetchRaw } from "../lib/measure.ts";
import { adopt } from "../lib/processes.ts";

// Hop-by-hop or per-response: the static servers set their own (a Content-Length instead of chunks).
const NOT_COPIED = new Set(["connection", "keep-alive", "transfer-encoding", "date", "content-length"]);

/** GET / as the app answered it, kept in files for the static servers. */
export type HomeCopy = { body: Buffer; bodyFile: string; headers: Record<string, string | string[]>; headersFile: string };

export type StaticServer = { url: string; pid: number; proc: ChildProcess; bytes: number; headers: Record<string, string | string[]> };

/** Fetches GET / once, raw (compressed as a browser gets it), and keeps its body and headers in bench/results/. */
export async function copyHome(baseUrl: string, homeHeaders: Record<string, string>): Promise<HomeCopy> {
  const original = await fetchRaw(`${baseUrl}/`, homeHeaders);
  if (original.status !== 200) throw new Error(`GET / answered ${original.status}; static / needs a 200 to copy`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(original.headers)) {
    if (value !== undefined && !NOT_COPIED.has(name)) headers[name] = value;
  }
  const bodyFile = path.join(RESULTS_DIR, "static-home.body");
  const headersFile = path.join(RESULTS_DIR, "static-home.headers.json");
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(bodyFile, original.body);
  writeFileSync(headersFile, `${JSON.stringify(headers, null, 2)}\n`);
  return { body: original.body, bodyFile, headers, headersFile };
}

/** Throws unless `url` answers GET / with the copy's bytes, encoding and type. */
export async function checkSameAsHome(url: string, copy: HomeCopy, homeHeaders: Record<string, string>, what: string): Promise<void> {
  const served = await fetchRaw(`${url}/`, homeHeaders);
  if (
    served.status !== 200 ||
    !served.body.equals(copy.body) ||
    served.headers["content-encoding"] !== copy.headers["content-encoding"] ||
    served.headers["content-type"] !== copy.headers["content-type"]
  ) {
    throw new Error(`${what} does not answer the same bytes and headers as GET /`);
  }
}

export async function startStaticServer(copy: HomeCopy, homeHeaders: Record<string, string>): Promise<StaticServer> {
  const proc = adopt(
    spawn(process.execPath, [path.join(ROOT, "bench", "static-server.ts"), copy.bodyFile, copy.headersFile], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let errors = "";
  proc.stderr?.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-5000)));
  const first = await createInterface({ input: proc.stdout! })[Symbol.asyncIterator]().next();
  const port = /^listening (\d+)$/.exec(first.done ? "" : first.value)?.[1];
  if (!port || proc.pid === undefined) throw new Error(`bench/static-server.ts did not start: ${errors}`);
  const url = `http://127.0.0.1:${port}`;
  // It must answer exactly what the app did.
  await checkSameAsHome(url, copy, homeHeaders, "static /");
  return { url, pid: proc.pid, proc, bytes: copy.body.length, headers: copy.headers };
}
