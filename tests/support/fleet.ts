import { existsSync, readdirSync } from "node:fs";
import { inject } from "vitest";
import { createPostgresDatabase, postgresAdminUrl } from "./postgres";
import { startServer, type Exit, type Launch, type SpawnedServer } from "./server";
import { makeTempDir, removeTempDir } from "./temp";
import { openDatabase, type Database } from "~/platform/db/db.server";

/**
 * Several instances of the built server on one PostgreSQL database, as a
 * fleet behind a load balancer runs: each with a DATA_DIR of its own (no
 * shared disk between machines), all with the same settings. Add what a
 * part of the fleet needs through `env` (S3_* for images in a bucket, SMTP_URL
 * for e-mail); `start` adds one more instance, with settings of its own where
 * a test needs them (a skewed clock, a fixed port).
 */
export type Fleet = {
  /** The fleet's PostgreSQL database. */
  databaseUrl: string;
  /** The settings every instance starts with. */
  env: Record<string, string | undefined>;
  instances: SpawnedServer[];
  /** Starts one more instance on the fleet's database (not waiting for the others); it joins `instances`. */
  start(extra?: Record<string, string | undefined>): Promise<SpawnedServer>;
  /**
   * Stops instance `index` with SIGTERM (to its process group under `npm
   * start`, as systemd and `docker stop` do), as a rolling restart does, and
   * starts it again on its port and DATA_DIR, in its place in `instances`.
   */
  restart(index: number): Promise<{ stopped: SpawnedServer; exit: Exit; restarted: SpawnedServer }>;
  /** A connection of the test's own, for reading what the fleet stored. */
  reader(): Database;
  /** Stops every instance, then drops the database. */
  stop(): Promise<void>;
};

export type FleetOptions = {
  /** How many instances start together (at once: their migrations race). */
  size?: number;
  env?: Record<string, string | undefined>;
  /** `node server.js` (the default) or `npm start` in a process group of its own (support/server.ts). */
  launch?: Launch;
  /** A copy of the run's migrated database (backends.ts) rather than an empty one the instances migrate as they start. */
  migrated?: boolean;
};

export async function startFleet({ size = 2, env = {}, launch = "node", migrated = false }: FleetOptions = {}): Promise<Fleet> {
  if (!postgresAdminUrl) throw new Error("A fleet needs PostgreSQL: set DATABASE_URL (scripts/test-postgres.sh start prints one)");
  const postgres = await createPostgresDatabase({ template: migrated ? inject("migratedTemplates").postgresDatabase : undefined });
  const dirs: string[] = [];
  const readers: Database[] = [];
  const sharedEnv = { DATABASE_URL: postgres.url, ...env };
  const instances: SpawnedServer[] = [];

  const settings = new Map<SpawnedServer, Record<string, string | undefined>>();
  const start = async (extra: Record<string, string | undefined> = {}) => {
    const dir = await makeTempDir("fleet");
    dirs.push(dir);
    const env = { ...sharedEnv, DATA_DIR: dir, ...extra };
    const instance = await startServer(env, { launch });
    settings.set(instance, env);
    instances.push(instance);
    return instance;
  };
  const restart = async (index: number) => {
    const stopped = instances[index]!;
    const exit = await stopped.stop();
    const env = { ...settings.get(stopped)!, PORT: String(stopped.port) };
    const restarted = await startServer(env, { launch });
    settings.set(restarted, env);
    instances[index] = restarted;
    return { stopped, exit, restarted };
  };

  const fleet: Fleet = {
    databaseUrl: postgres.url,
    env: sharedEnv,
    instances,
    start,
    restart,
    reader() {
      const opened = openDatabase({ dataDir: "", databaseUrl: postgres.url });
      readers.push(opened);
      return opened;
    },
    async stop() {
      await Promise.allSettled(instances.map((instance) => instance.stop()));
      await Promise.allSettled(readers.map((reader) => reader.close()));
      await postgres.drop();
      await Promise.allSettled(dirs.map((dir) => removeTempDir(dir)));
    },
  };
  try {
    await Promise.all(Array.from({ length: size }, () => start()));
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}

/**
 * libfaketime, which makes a process's clock read wrong (FAKETIME="+600s"):
 * a real skewed instance, not a mock of our clock. Debian's package
 * `faketime` (.ci/run installs it).
 */
export function libfaketime(): string {
  for (const lib of readdirSync("/usr/lib", { withFileTypes: true })) {
    const candidate = `/usr/lib/${lib.name}/faketime/libfaketime.so.1`;
    if (lib.isDirectory() && existsSync(candidate)) return candidate;
  }
  throw new Error("libfaketime is missing: apt-get install -y faketime (the clock-skew test runs an instance on a skewed clock)");
}

/** The environment that starts an instance with its clock `offsetSeconds` off (negative: behind). */
export function skewedClockEnv(offsetSeconds: number): Record<string, string> {
  return { LD_PRELOAD: libfaketime(), FAKETIME: `${offsetSeconds >= 0 ? "+" : ""}${offsetSeconds}s` };
}
