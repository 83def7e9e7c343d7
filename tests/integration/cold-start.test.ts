/**
 * What a cold start loads (issue 19, point 5; decision 066): the server answers
 * /healthz before it has loaded what only some requests need. Node's fetch
 * (undici: a tenth of a start and ~12 MB of RSS) comes with the first page React
 * Router renders, the passkey library with the first passkey ceremony.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOADED_MODULES_PREFIX } from "../support/loaded-modules";
import { assertBuilt, repoRoot, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";

const probe = fileURLToPath(new URL("../support/loaded-modules.ts", import.meta.url));

let server: SpawnedServer | undefined;
let dataDir: string | undefined;

beforeAll(() => assertBuilt());
afterAll(async () => {
  await server?.stop();
  if (dataDir) await removeTempDir(dataDir);
});

type Loaded = { undici: boolean; tls: boolean; files: string[] };

/** Asks the server (SIGUSR2 to the probe) what it has loaded so far. */
async function loaded(running: SpawnedServer): Promise<Loaded> {
  const before = running.stderr().length;
  running.signal("SIGUSR2");
  let line: string | undefined;
  await waitFor("the server's list of loaded modules", () => {
    line = running
      .stderr()
      .slice(before)
      .split("\n")
      .find((text) => text.startsWith(LOADED_MODULES_PREFIX));
    return line !== undefined;
  });
  return JSON.parse(line!.slice(LOADED_MODULES_PREFIX.length)) as Loaded;
}

/** The build's files that hold the passkey library's own code (not only calls into it). */
const holdsWebAuthn = (file: string) =>
  file.includes("/build/server/") && readFileSync(new URL(file), "utf8").includes("function verifyAuthenticationResponse(");

it("answers /healthz before loading Node's fetch, TLS or the passkey library, and loads each when first needed", async () => {
  dataDir = await makeTempDir("cold-start-");
  // With the metrics on: prom-client's index would load node:https, and with it node:tls (decision 081).
  server = await startServer({ DATA_DIR: dataDir, NODE_OPTIONS: `--import=${probe}`, METRICS_TOKEN: "cold-start-metrics-token-0123456789" });

  const atStart = await loaded(server);
  expect(atStart.files.some((file) => file.endsWith("/build/server/index.js"))).toBe(true);
  expect(atStart.undici).toBe(false);
  expect(atStart.tls).toBe(false);
  const metrics = await fetch(`${server.url}/metrics`, { headers: { Authorization: "Bearer cold-start-metrics-token-0123456789" } });
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain("http_requests_total");
  expect((await loaded(server)).tls).toBe(false);
  expect(atStart.files.filter(holdsWebAuthn)).toEqual([]);

  const home = await fetch(`${server.url}/`);
  expect(home.status).toBe(200);
  expect((await loaded(server)).undici).toBe(true);

  // Passkeys need a host name, not an address.
  const localhost = `http://localhost:${server.port}`;
  const options = await fetch(`${localhost}/api/passkey-sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: localhost },
    body: JSON.stringify({ step: "options" }),
  });
  expect(options.status).toBe(200);
  expect(((await options.json()) as { challenge?: unknown }).challenge).toEqual(expect.any(String));
  expect((await loaded(server)).files.filter(holdsWebAuthn)).toHaveLength(1);
});

/**
 * Node gives V8 a file's source one byte a character only when the file is all ASCII; a single
 * other character (an em dash in a comment, an accent in a licence line) doubles what V8 keeps
 * of the whole file for as long as the server runs: 4 to 5 MB of the server's RSS (decision 081).
 */
it("builds the server's files in ASCII, so V8 keeps their source one byte a character", () => {
  const dir = path.join(repoRoot, "build/server");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  expect(files).toContain("index.js");
  const notAscii = files.flatMap((file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every character outside ASCII.
    const at = text.search(/[^\u0000-\u007f]/);
    return at < 0 ? [] : [`${file}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`];
  });
  expect(notAscii).toEqual([]);
});

/** The bundle's files whose compiled code Node read from `cacheDir` and V8 accepted (NODE_DEBUG_NATIVE=COMPILE_CACHE's lines). */
function compiledCodeRead(stderr: string, cacheDir: string): string[] {
  const read = new Set(
    [...stderr.matchAll(/^\[compile cache\] reading cache from (\S+) for ESM (\S+?)\.\.\..*success/gm)]
      .filter(([, from]) => from!.startsWith(cacheDir))
      .map(([, , file]) => file!),
  );
  return [...stderr.matchAll(/^\[compile cache\] V8 code cache for ESM (\S+) was accepted/gm)]
    .map(([, file]) => file!)
    .filter((file) => read.has(file) && file.includes("/build/server/"))
    .map((file) => path.basename(fileURLToPath(file)))
    .sort();
}

it("starts with the compiled code of its bundle that `npm run build` left in build/compile-cache (decision 080)", async () => {
  const dir = await makeTempDir("cold-start-cache-");
  const started = await startServer({ DATA_DIR: dir, NODE_DEBUG_NATIVE: "COMPILE_CACHE" });
  try {
    const read = compiledCodeRead(started.stderr(), path.join(repoRoot, "build", "compile-cache"));
    expect(read).toContain("index.js");
    expect(read.some((file) => file.startsWith("server-build-"))).toBe(true);
  } finally {
    await started.stop();
    await removeTempDir(dir);
  }
});

it("starts and serves when its compile cache cannot be written (a read-only install): the cache only saves time", async () => {
  const dir = await makeTempDir("cold-start-no-cache-");
  // A folder beneath a file can never be made, whoever runs the server (root included).
  writeFileSync(path.join(dir, "a-file"), "");
  const started = await startServer({ DATA_DIR: dir, NODE_COMPILE_CACHE: path.join(dir, "a-file", "cache") });
  try {
    expect((await fetch(`${started.url}/`)).status).toBe(200);
    expect(started.stderr()).toBe("");
  } finally {
    await started.stop();
    await removeTempDir(dir);
  }
});
