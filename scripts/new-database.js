// `npm run build`'s last step: the migrated SQLite database a new DATA_DIR starts
// as a copy of (decision 080), written beside the server bundle.
import { fileURLToPath } from "node:url";

process.env.NODE_ENV ??= "production";
const { writeNewSqliteDatabase } = await import("../build/server/index.js");
const written = await writeNewSqliteDatabase(fileURLToPath(new URL("../build/server/", import.meta.url)));
console.log(`New SQLite database: ${written}`);
