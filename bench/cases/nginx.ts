/**
 * nginx / (issue 19, point 5): the bytes and headers the app sent for GET /, served by
 * Debian's nginx (`apt-get install nginx-light`, or NGINX=/path/to/nginx) from a file, as a
 * site would serve a static page: the reference the "GET / against nginx serving
 * the same bytes" ratio is taken against. Its own configuration, in a temporary directory:
 * worker_processes auto (one per core, Debian's default), keep-alive without a request limit
 * (autocannon's connections stay open, as they do against the app), no ETag, no access log
 * (the figure is a reference: the fastest a plain server answers these bytes here).
 * Skipped, with a note, when nginx is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, sleep } from "../lib/measure.ts";
import { adopt, isRunning, temporaryDirectory } from "../lib/processes.ts";
import { checkSameAsHome, type HomeCopy } from "./static.ts";

export type NginxServer = { url: string; pid: number; proc: ChildProcess; version: string; workers: () => number[] };

/** nginx's binary: NGINX, else Debian's place, else none. */
export function findNginx(): string | undefined {
  const candidates = [process.env.NGINX, "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"];
  return candidates.find((file): file is string => Boolean(file) && existsSync(file!));
}

/** An nginx string literal; `$` would start a variable, and no header of ours has one. */
function quoted(value: string): string {
  if (value.includes("$")) throw new Error(`nginx / cannot send a header value with a "$": ${value}`);
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The pids whose parent is `pid` (nginx's workers). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export async function startNginx(binary: string, copy: HomeCopy, homeHeaders: Record<string, string>): Promise<NginxServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-nginx-"));
  temporaryDirectory(dir);
  // Workers may run as another user (root's default is nobody): everything here is readable.
  chmodSync(dir, 0o755);
  const root = path.join(dir, "www");
  mkdirSync(path.join(root), { mode: 0o755 });
  writeFileSync(path.join(root, "home.body"), copy.body, { mode: 0o644 });
  const port = await freePort();
  const contentType = String(copy.headers["content-type"] ?? "text/html");
  const added: string[] = [];
  for (const [name, value] of Object.entries(copy.headers)) {
    if (name === "content-type") continue;
    for (const one of Array.isArray(value) ? value : [value]) added.push(`      add_header ${name} ${quoted(one)} always;`);
  }
  const temp = (name: string) => path.join(dir, name);
  const config = `# Written by bench/cases/nginx.ts for one run.
${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes auto;
daemon off;
pid ${temp("nginx.pid")};
error_log ${temp("error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000000;
  keepalive_timeout 65s;
  etag off;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / {
      types { }
      default_type ${quoted(contentType)};
      rewrite ^ /home.body break;
${added.join("\n")}
    }
  }
}
`;
  const configFile = temp("nginx.conf");
  writeFileSync(configFile, config);
  const version = (spawnSync(binary, ["-v"], { encoding: "utf8" }).stderr ?? "").trim().replace(/^nginx version: /, "");
  const proc = adopt(spawn(binary, ["-p", dir, "-e", temp("error.log"), "-c", configFile], { stdio: ["ignore", "pipe", "pipe"] }));
  let output = "";
  proc.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-5000)));
  proc.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-5000)));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 50) {
    if (!isRunning(proc)) throw new Error(`nginx exited during start: ${output}${readLog(temp("error.log"))}`);
    try {
      await checkSameAsHome(url, copy, homeHeaders, "nginx /");
      break;
    } catch (error) {
      if (waited > 10_000) throw error;
      await sleep(50);
    }
  }
  return { url, pid: proc.pid!, proc, version, workers: () => childrenOf(proc.pid!) };
}

function readLog(file: string): string {
  try {
    return readFileSync(file, "utf8").slice(-3000);
  } catch {
    return "";
  }
}
