import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The PostgreSQL server the tests may use, from DATABASE_URL. Its role must be
 * allowed to create databases: every test gets a database of its own.
 */
export const postgresAdminUrl: string | undefined = process.env.DATABASE_URL || undefined;

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!postgresAdminUrl) throw new Error("DATABASE_URL is not set");
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * DROP DATABASE ... WITH (FORCE). An autovacuum worker on the database cannot be
 * ended by a role without pg_signal_backend (scripts/test-postgres.sh grants it);
 * on a server set up by hand, wait for the worker to finish and try again.
 */
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (error) {
      const insufficientPrivilege = (error as { code?: string }).code === "42501";
      if (!insufficientPrivilege || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

export type PostgresTestDatabase = {
  name: string;
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
};

/**
 * CREATE DATABASE t_<random> on the server of DATABASE_URL: empty, or a copy
 * of `template` (a database nobody is connected to, e.g. the migrated one of
 * tests/support/global-setup.ts).
 */
export async function createPostgresDatabase({ template }: { template?: string } = {}): Promise<PostgresTestDatabase> {
  const name = `t_${randomBytes(8).toString("hex")}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`));
  const url = new URL(postgresAdminUrl!);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    drop: () => (dropped ??= dropDatabase(name)),
  };
}
