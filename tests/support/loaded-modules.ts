/**
 * Loaded into a server under test with `NODE_OPTIONS=--import=<this file>`
 * (tests/integration/cold-start.test.ts): on SIGUSR2 it writes to stderr, as one
 * line, what the process has loaded so far: the files of the build (every
 * `file:` module), whether Node's own fetch (undici) is loaded, and whether
 * node:tls is (loading it makes Node parse its root certificates).
 */
import { registerHooks } from "node:module";

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith("file:")) loaded.add(url);
    return nextLoad(url, context);
  },
});

export const LOADED_MODULES_PREFIX = "loaded-modules ";

process.on("SIGUSR2", () => {
  const internal = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
  const report = { undici: internal.some((name) => name.includes("undici")), tls: internal.includes("NativeModule tls"), files: [...loaded] };
  process.stderr.write(`${LOADED_MODULES_PREFIX}${JSON.stringify(report)}\n`);
});
