import { chmodSync, constants, copyFileSync, existsSync, linkSync, rmSync } from "node:fs";
import { migrations } from "./migrations";

/**
 * A new SQLite database starts as a copy of one the build migrated (decision 080):
 * the same migrations, run once by `npm run build` rather than at every first start
 * (most of a cold start's time on a fresh DATA_DIR went to them). Named after the
 * last migration, so a build finds only a copy made with its own migrations.
 * server/new-database.ts makes it.
 */
export const NEW_SQLITE_DATABASE = `new-database-${Object.keys(migrations).at(-1)}.sqlite`;

/**
 * Where there is no database file yet, puts a copy of `template` there, the server's
 * user's alone (0600, decision 021). Copied under a name of its own and linked into
 * place, so an instance starting at the same time finds no file or the whole copy,
 * never a part; a file already there is never replaced. A template that is missing
 * or cannot be read changes nothing: the migrations then make the database, as
 * they always did. Returns whether it copied.
 */
export function startFromTemplate(file: string, template: string): boolean {
  if (existsSync(file)) return false;
  const partial = `${file}.${process.pid}.new`;
  try {
    copyFileSync(template, partial, constants.COPYFILE_EXCL);
    chmodSync(partial, 0o600);
    linkSync(partial, file);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(partial, { force: true });
  }
}
