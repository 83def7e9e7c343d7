// Production entry: `npm start`.
import { enableCompileCache } from "node:module";

// React and React Router pick their production builds from NODE_ENV, so
// default it before anything loads them.
process.env.NODE_ENV ??= "production";
// V8 keeps the compiled code of the modules on disk (NODE_COMPILE_CACHE, else
// a folder in the system's temp dir): a restart does not compile them again.
// Quiet: without a writable folder the server starts as before.
enableCompileCache();
const { startServer } = await import("./build/server/index.js");
await startServer();
