// `npm run admin -- <command>`: manage admin accounts (see `npm run admin -- help`).
// It runs from the production build, like the server, so build first.
import { existsSync } from "node:fs";

const entry = new URL("../build/server/index.js", import.meta.url);
if (!existsSync(entry)) {
  console.error("The app is not built yet: run `npm run build` first, then `npm run admin -- <command>`.");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
const { runAdminCli } = await import(entry.href);
process.exitCode = await runAdminCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
