import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot, freePort } from "./server";

const run = promisify(execFile);
const script = path.join(repoRoot, "scripts/test-postgres.sh");

/**
 * A PostgreSQL cluster of one test's own (scripts/test-postgres.sh on a free
 * port and a temp dir), for a test that restarts or stops the database
 * server: the shared one of DATABASE_URL serves every other test file at the
 * same time and must never go down. Needs the server binaries
 * (/usr/lib/postgresql/<version>/bin; as root the cluster runs as user
 * postgres).
 */
export type PrivatePostgres = {
  /** The app role's database on this cluster. */
  url: string;
  /** `pg_ctl restart -m fast`: every session ends (57P01), and the server is back when this resolves. */
  restart(): Promise<void>;
  /** Stops the server, keeping its data: the database is unreachable until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the cluster and deletes it. */
  remove(): Promise<void>;
};

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const env = {
    ...process.env,
    PG_TEST_PORT: String(await freePort()),
    PG_TEST_DIR: path.join(os.tmpdir(), `pm-test-private-pg-${randomBytes(6).toString("hex")}`),
  };
  const command = async (name: string) => (await run("bash", [script, name], { env, timeout: 120_000 })).stdout.trim();
  const url = await command("start");
  return {
    url,
    restart: async () => void (await command("restart")),
    pause: async () => void (await command("pause")),
    resume: async () => void (await command("resume")),
    remove: async () => void (await command("stop")),
  };
}
