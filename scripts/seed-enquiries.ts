/**
 * `npm run seed:enquiries -- 100000`: that many made-up enquiries (plus one to
 * find: "Zebedee Quartermaine", a lighthouse near Whitby) into the site's
 * database, for trying the inbox at scale (issue 22, decision 058). The same
 * rows as the bench's inbox case (bench/lib/enquiries.ts), in batched inserts
 * of 500, 20,000 to a transaction. The database must have its schema: start
 * the site once first. DATABASE_URL selects PostgreSQL, else the SQLite file
 * in DATA_DIR (./data), as for the server. Never on a production database:
 * the enquiries are fake, and they stay until deleted.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { seedEnquiries } from "../bench/lib/enquiries.ts";

const count = Number(process.argv[2] ?? "100000");
if (!Number.isSafeInteger(count) || count < 1 || count > 10_000_000) {
  console.error("Usage: npm run seed:enquiries -- <how many, 1 to 10,000,000> (default 100000)");
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL?.trim();
const sqliteFile = path.join(path.resolve(process.env.DATA_DIR?.trim() || "./data"), "app.sqlite");
if (!databaseUrl && !existsSync(sqliteFile)) {
  console.error(`No database at ${sqliteFile}: start the site once (it makes the schema), then seed.`);
  process.exit(1);
}
try {
  const ms = await seedEnquiries(databaseUrl ? { databaseUrl } : { sqliteFile }, count);
  console.log(`${(count + 1).toLocaleString("en-GB")} enquiries written to ${databaseUrl ? "PostgreSQL" : sqliteFile} in ${(ms / 1000).toFixed(1)} s.`);
} catch (error) {
  console.error(`Seeding failed: ${(error as Error).message}`);
  process.exit(1);
}
