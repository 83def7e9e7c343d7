// The server bundle's entry (vite.config.ts): one bundle, one copy of every
// module, for each way the app is started.
/** `npm start` (server.js) and `npm run dev`. */
export { startServer } from "./app";
/** `npm run admin` (scripts/admin.js). */
export { runAdminCli } from "./admin-cli";
/** `npm run bench` times the image processing alone, beside the upload through the server. */
export { processImage } from "~/images/process.server";
/** `npm run build`'s last step (scripts/finish-build.js): the migrated database a new DATA_DIR starts from. */
export { writeNewSqliteDatabase } from "./new-database";
