// Production entry: `npm start`.
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";

// React and React Router pick their production builds from NODE_ENV, so
// default it before anything loads them.
process.env.NODE_ENV ??= "production";
// V8 keeps the compiled code of the modules on disk, so a start does not compile
// them again: in build/compile-cache, which `npm run build` fills and the next
// build replaces (NODE_COMPILE_CACHE chooses another folder), not in the temp dir
// a service manager may give each start afresh. Quiet: a folder that cannot be
// read or written (a read-only install) leaves the server starting as before (decision 080).
enableCompileCache(process.env.NODE_COMPILE_CACHE ? undefined : fileURLToPath(new URL("./build/compile-cache", import.meta.url)));
const { startServer } = await import("./build/server/index.js");
await startServer();
