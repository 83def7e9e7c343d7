// `npm run build`'s last step (decision 080), beside the server bundle:
// - the migrated SQLite database a new DATA_DIR starts as a copy of;
// - V8's compiled code of the bundle in build/compile-cache (server.js reads it
//   from there), so the first start after a build does not compile it.
import { readdirSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";

enableCompileCache(process.env.NODE_COMPILE_CACHE ? undefined : fileURLToPath(new URL("../build/compile-cache", import.meta.url)));
process.env.NODE_ENV ??= "production";
const { writeNewSqliteDatabase } = await import("../build/server/index.js");
// The React Router build too, which the server imports as it starts (its name has the build's hash).
const assets = new URL("../build/server/assets/", import.meta.url);
for (const file of readdirSync(assets).filter((name) => /^server-build-[\w-]+\.js$/.test(name))) await import(new URL(file, assets).href);
const written = await writeNewSqliteDatabase(fileURLToPath(new URL("../build/server/", import.meta.url)));
console.log(`New SQLite database: ${written}`);
