import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Database, Db } from "~/platform/db/db.server";
import { TEST_ADMIN_ENV, postAdminForm, signInOverHttp } from "./admin-http";
import type { Backend, TestDatabase } from "./backends";
import { rawRequest, type RawResponse } from "./http";
import { startServer, type SpawnedServer } from "./server";
import { migrateBefore } from "./migrations";
import { startSmtpServer, testCertificate, type TestSmtpServer } from "./smtp";

/**
 * The fixtures of the integration tests: a migrated database of one backend,
 * and a site (that database with the built server on it and the test admin
 * signed in). `useDatabase` and `useSite` are called in a describe block:
 * what they return is ready in the block's tests and hooks, and removed after
 * its last test. Each database is a copy of the one the global setup
 * migrated (backends.ts), so no test waits for the migrations.
 */

/** A migrated database and a connection of the test's own, to arrange what the app reads and read what it stored. */
export type OpenDatabase = {
  database: TestDatabase;
  reader: Database;
  /** reader.db */
  db: Db;
};

type ServerEnv = Record<string, string | undefined>;

export type SiteOptions = {
  /** More of the server's settings (a raised limit, a proxy to trust), or a function that finds them when the site starts. */
  env?: ServerEnv | (() => Promise<ServerEnv>);
  /** What the site holds before its server starts, written through the app's own functions. */
  seed?: (db: Db) => Promise<unknown>;
  /** false: no admin account, nobody signed in (a public site). */
  signedIn?: boolean;
};

/** A migrated database, the built server on it, a connection of the test's own and the test admin's session. */
export type Site = OpenDatabase & {
  server: SpawnedServer;
  /** "__Host-admin_session=<token>" of TEST_ADMIN, for a Cookie header ("" when not signed in). */
  cookie: string;
  /** DATA_DIR/images: the bucket on disk. */
  imagesDir: string;
  /** GET `path` on a connection of its own, exactly as given. */
  get(path: string, headers?: Record<string, string>): Promise<RawResponse>;
  /** The signed-in admin's form POST to `path` from the site itself (urlencoded, as a browser without JavaScript sends it). */
  postForm(path: string, fields: Record<string, string>): Promise<RawResponse>;
  /** Stops the server if it still runs and starts it again on the same database and settings (the session stays). */
  startAgain(): Promise<void>;
};

/** A copy of the run's migrated database (tests/support/global-setup.ts) and a connection to it. */
async function openMigratedDatabase(backend: Backend): Promise<OpenDatabase> {
  const database = await backend.createDatabase({ migrated: true });
  const reader = database.open();
  return { database, reader, db: reader.db };
}

/** The site of `options` on a new migrated database; `stop` stops the server and deletes the database. */
async function startSite(backend: Backend, options: SiteOptions = {}): Promise<Site & { stop(): Promise<void> }> {
  const { signedIn = true } = options;
  const opened = await openMigratedDatabase(backend);
  let server: SpawnedServer | undefined;
  const stop = async () => {
    await server?.stop();
    await opened.database.cleanup();
  };
  try {
    await options.seed?.(opened.db);
    const more = typeof options.env === "function" ? await options.env() : options.env;
    const env = { ...opened.database.env, ...(signedIn ? TEST_ADMIN_ENV : {}), ...more };
    server = await startServer(env);
    const cookie = signedIn ? await signInOverHttp(server) : "";
    const site: Site & { stop(): Promise<void> } = {
      ...opened,
      server,
      cookie,
      imagesDir: path.join(opened.database.env.DATA_DIR, "images"),
      get: (pathname, headers = {}) => rawRequest(site.server.port, { method: "GET", path: pathname, headers }),
      postForm: (pathname, fields) => postAdminForm(site.server, cookie, pathname, fields),
      async startAgain() {
        await server?.stop();
        site.server = server = await startServer(env);
      },
      stop,
    };
    return site;
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Something the describe block's beforeAll makes and its afterAll removes,
 * handed out before it exists: its fields may be read in tests and hooks only.
 */
function fixture<T extends object>(what: string, make: () => Promise<T & { stop(): Promise<void> }>): T {
  let made: (T & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    made = await make();
  });
  afterAll(async () => {
    await made?.stop();
    made = undefined;
  });
  return new Proxy({} as T, {
    get(_target, field) {
      if (!made) throw new Error(`${what} is made in the describe block's beforeAll: read ${String(field)} in a test or a hook`);
      return made[field as keyof T];
    },
  });
}

/** A migrated database of `backend` for the tests of this describe block. */
export function useDatabase(backend: Backend): OpenDatabase {
  return fixture("The database", async () => {
    const opened = await openMigratedDatabase(backend);
    return { ...opened, stop: () => opened.database.cleanup() };
  });
}

/**
 * A database of `backend` for the tests of this describe block, migrated as a
 * site that ran every migration before `first` ("022") and none from it: where
 * a migration's own test starts, to write rows as the code before it did.
 */
export function useDatabaseBefore(backend: Backend, first: string): Database {
  return fixture("The database", async () => {
    const testDb = await backend.createDatabase();
    const database = testDb.open();
    await migrateBefore(database, first);
    return { ...database, stop: () => testDb.cleanup() };
  });
}

/** A site on `backend` for the tests of this describe block: by default the test admin is signed in. */
export function useSite(backend: Backend, options: SiteOptions = {}): Site {
  return fixture("The site", () => startSite(backend, options));
}

/**
 * A site that sends its e-mail to a real SMTP server of the test's (over
 * STARTTLS, with the test's certificate trusted), started before the site and
 * stopped after it. `env`: more of the server's settings (PUBLIC_URL…).
 */
export function useSiteWithMail(backend: Backend, env: ServerEnv = {}): { site: Site; smtp: TestSmtpServer } {
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer(undefined, { tls: true });
  });
  afterAll(() => smtp?.stop());
  const site = useSite(backend, {
    env: async () => ({
      SMTP_URL: smtp!.url,
      MAIL_FROM: "Example Lettings <office@mail.example.com>",
      CONTACT_NOTIFY_TO: "office@example.com",
      NODE_EXTRA_CA_CERTS: testCertificate().certFile,
      ...env,
    }),
  });
  const server = new Proxy({} as TestSmtpServer, {
    get(_target, field) {
      if (!smtp) throw new Error(`The SMTP server is started in the describe block's beforeAll: read ${String(field)} in a test or a hook`);
      return smtp[field as keyof TestSmtpServer];
    },
  });
  return { site, smtp: server };
}
