import { startAuditRetention } from "~/auth/audit-log.server";
import { countAdmins, ensureAdmin } from "~/auth/admins.server";
import { startPruningSignInState } from "~/auth/expired-state.server";
import { forgetDeadInvitationLinks } from "~/auth/invitations.server";
import { hashPassword } from "~/auth/password.server";
import { passwordResetComposer } from "~/auth/password-reset.server";
import { companyFrom } from "~/company/company";
import { createFormTokens } from "~/enquiries/form-token.server";
import { startOutboxWorker } from "~/enquiries/outbox-worker.server";
import { createOutboxSignal, outboxBacklog } from "~/enquiries/outbox.server";
import { startRetentionSchedule } from "~/enquiries/retention.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { startDatabaseClock } from "~/platform/fleet/clock.server";
import { publicVersionReader } from "~/platform/db/data-version.server";
import { snapshotReads } from "~/platform/db/snapshot-read.server";
import { migrateToLatest, migrationState, type Database } from "~/platform/db/db.server";
import { groupCommits } from "~/platform/db/group-commit.server";
import type { Env } from "~/platform/config/env.server";
import type { Log } from "~/platform/observe/log.server";
import type { Mailer } from "~/platform/mail/mailer.server";
import { NO_METRICS, type Metrics } from "~/platform/observe/metrics.server";
import { createRefusalMemory, startPruningEvents } from "~/platform/limits/rate-limit.server";
import type { SiteLock } from "~/platform/db/site-lock.server";
import type { Repeating } from "~/platform/fleet/schedule.server";
import { createSecrets } from "~/platform/db/secrets.server";
import { createTally } from "~/platform/limits/tally.server";
import { openBackends } from "~/platform/config/services.server";
import { startFleetJob } from "~/platform/fleet/job-runs.server";
import type { AppServices } from "~/services";
import { startScheduledPublishing } from "~/website/schedule.server";

export type BootOptions = {
  /**
   * The server runs the background work (the e-mail outbox, retention,
   * pruning) and makes ADMIN_EMAIL's admin; `npm run admin` does neither.
   */
  role: "server" | "cli";
  /** The one logger (server/app.ts makes it; `npm run admin` passes plain lines to stderr). */
  log: Log;
  /** What GET /metrics reports, when METRICS_TOKEN is set. */
  metrics?: Metrics;
  /** The migrated SQLite database the build made: a new one starts as its copy (platform/db/new-database.server.ts). */
  newSqliteDatabase?: string | undefined;
};

export type Booted = {
  services: AppServices;
  database: Database;
  mailer: Mailer | undefined;
  /** Stops the background work, then closes the mailer and the database. */
  close(): Promise<void>;
};

/**
 * The one place the app is put together, for the server, `npm run admin` and
 * so the bench alike: validated settings → backends (platform/config/services.server.ts
 * chooses them) → migrations → the services every loader, action and command
 * is given. Nothing else builds them.
 */
export async function boot(env: Env, { role, log, metrics = NO_METRICS, newSqliteDatabase }: BootOptions): Promise<Booted> {
  const { database, storage, mailer } = openBackends(env, IMAGE_NAMING, log, { newSqliteDatabase });
  // On a new database ADMIN_EMAIL's admin is certainly to be made: its password is hashed
  // (Argon2, on the thread pool) while this thread goes on with the start (decision 080).
  const { initialAdmin } = env;
  const hashAdminPassword = () => {
    if (role !== "server" || !initialAdmin) return undefined;
    const hashing = hashPassword(initialAdmin.password);
    // Awaited by ensureAdmin below; a start that fails first must not leave it an unhandled rejection.
    hashing.catch(() => {});
    return hashing;
  };
  let adminHash = database.copiedFromBuild ? hashAdminPassword() : undefined;
  // A server says it runs before it touches the database, so `npm run admin --
  // restore` refuses to replace it underneath, and a server does not start
  // (nor migrate) while a restore is replacing it (decision 033).
  let running: SiteLock | undefined;
  try {
    if (role === "server") running = await database.lockSite("running");
  } catch (error) {
    await database.close();
    throw error;
  }
  const state = await migrationState(database);
  if (state === "new") adminHash ??= hashAdminPassword();
  const applied = await migrateToLatest(database, { state });
  const made = database.copiedFromBuild ? " (new: a copy of the build's migrated database)" : "";
  log.info(`Database: ${database.description}${made}${applied.length ? ` (applied ${applied.join(", ")})` : ""}`);

  // Times several instances compare (the contact form's token, e-mail leases) are on the database's clock.
  const clock = await startDatabaseClock(database, log);
  const secrets = createSecrets(database.db);
  const outbox = createOutboxSignal();
  const tally = createTally(database.db, log);
  const publicVersion = publicVersionReader(database);
  const services: AppServices = {
    db: database.db,
    publicVersion: publicVersion.read,
    snapshots: snapshotReads(database),
    transactions: groupCommits(database.db),
    secrets,
    formTokens: createFormTokens(secrets),
    outbox,
    clock,
    storage,
    databaseHealth: database.health,
    log,
    metrics,
    company: companyFrom(env.company),
    tally,
    refusals: createRefusalMemory(),
    publicUrl: env.publicUrl,
    publicImagesUrl: env.publicImagesUrl,
    mail: env.mail && { from: env.mail.from, notifyTo: env.mail.notifyTo },
    contact: {
      rateLimit: env.contactRateLimit,
      siteLimit: env.contactSiteLimit,
      hardLimit: env.contactHardLimit,
      retentionDays: env.enquiryRetentionDays,
    },
    auth: {
      // Production cookies are Secure: browsers send them over HTTPS (and to localhost) only.
      cookie: { secure: env.mode === "production" },
      loginRateLimit: env.loginRateLimit,
      auditRetentionDays: env.auditRetentionDays,
    },
  };

  const background: Array<Repeating | { stop(): Promise<void> }> = [];
  if (role === "server") {
    log.info(`Images: ${storage.description}${env.publicImagesUrl ? `, linked from the pages at ${env.publicImagesUrl}` : ""}`);
    // Jobs left from before a restart go out as soon as the worker starts.
    // Its leases are on the database's clock, which every instance shares.
    // A password reset's e-mail is composed as it is sent (its link made then): app/auth/password-reset.server.ts.
    const composers = env.mail && { "password-reset": passwordResetComposer({ db: database.db, from: env.mail.from, siteName: services.company.name, log }) };
    if (mailer)
      background.push(startOutboxWorker({ db: database.db, mailer, outbox, log, composers, now: () => clock.now(), onFailedSend: () => metrics.sendFailed() }));
    metrics.watchOutbox(() => outboxBacklog(database.db, clock.now()));
    log.info(
      mailer && env.mail
        ? `E-mail: ${mailer.description}, notifying ${env.mail.notifyTo.join(", ")}`
        : "E-mail: off (no SMTP_URL): enquiries are stored and shown in /admin only",
    );
    if (env.mail?.insecure && env.mail.smtpUrl.startsWith("smtp:")) {
      log.warn(
        "WARNING: SMTP_INSECURE=true: e-mail may go over plain SMTP, where anyone on the network path can read the SMTP password and every enquiry. Use it only for a relay on this machine or a trusted network.",
      );
    }
    // ENQUIRY_RETENTION_DAYS: older enquiries are deleted daily (nothing runs when it is unset).
    background.push(startRetentionSchedule({ db: database.db, retentionDays: env.enquiryRetentionDays, log, now: () => clock.now() }));
    background.push(startPruningEvents(database.db, log, () => clock.now()));
    background.push(startPruningSignInState(database.db, log, () => clock.now()));
    // AUDIT_RETENTION_DAYS: the audit log's one deletion, daily, once for the fleet.
    background.push(startAuditRetention({ db: database.db, retentionDays: env.auditRetentionDays, log, now: () => clock.now() }));
    // An invitation e-mail given up on keeps no link once the invitation can no longer be used.
    background.push(
      startFleetJob(
        { db: database.db, name: "invitation-links", everyMs: 60 * 60_000, firstAfterMs: 120_000, now: () => clock.now() },
        async () => void (await forgetDeadInvitationLinks(database.db, clock.now())),
        (error) => log.error({ err: error }, "Could not forget the links of dead invitations"),
      ),
    );
    // A website publish set for a date and time happens then, on one instance (decision 027).
    background.push(startScheduledPublishing({ db: database.db, clock, log }));

    if (initialAdmin && (await ensureAdmin(database.db, initialAdmin.email, initialAdmin.password, adminHash))) {
      log.info(`Created the admin ${initialAdmin.email.trim().toLowerCase()} (ADMIN_EMAIL)`);
    } else if (!initialAdmin && (await countAdmins(database.db)) === 0) {
      log.info("No admin account yet: create one with `npm run admin -- create <email>`, or set ADMIN_EMAIL and ADMIN_PASSWORD");
    }
  }

  let closing: Promise<void> | undefined;
  return {
    services,
    database,
    mailer,
    close: () =>
      (closing ??= (async () => {
        // An e-mail being sent records its outcome before the database closes.
        await Promise.all(background.map((work) => work.stop()));
        // The last refusals counted reach the dashboard.
        await tally.stop();
        clock.stop();
        publicVersion.close();
        mailer?.close();
        await database.close();
        await running?.release();
      })()),
  };
}
