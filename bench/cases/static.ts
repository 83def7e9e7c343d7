/**
 * static / (issue 6, point 6): the exact bytes and headers the app sent for GET /, served
 * by bench/static-server.ts (node:http, no Express) in its own process: the reference
 * GET / is measured against.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { RESULTS_DIR, ROOT } from "../lib/config.ts";
import { fetchRaw } from "../lib/measure.ts";
import { adopt } from "../lib/processes.ts";

// Hop-by-hop or per-response: the static server sets its own (a Content-Length instead of chunks).
const NOT_COPIED = new Set(["connection", "keep-alive", "transfer-encoding", "date", "content-length"]);

export type StaticServer = { url: string; pid: number; proc: ChildProcess; bytes: number; headers: Record<string, string | string[]> };

export async function startStaticServer(baseUrl: string, homeHeaders: Record<string, string>): Promise<StaticServer> {
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

  const proc = adopt(
    spawn(process.execPath, [path.join(ROOT, "bench", "static-server.ts"), bodyFile, headersFile], {
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
  const copy = await fetchRaw(`${url}/`, homeHeaders);
  if (!copy.body.equals(original.body) || copy.headers["content-encoding"] !== original.headers["content-encoding"] || copy.headers["content-type"] !== original.headers["content-type"]) {
    throw new Error("static / does not answer the same bytes and headers as GET /");
  }
  return { url, pid: proc.pid, proc, bytes: original.body.length, headers };
}
