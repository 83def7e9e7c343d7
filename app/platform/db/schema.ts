// This file is over 400 lines on purpose: the one list of every table and column, read beside the migrations (see below).
import type { ColumnType, Generated } from "kysely";

/**
 * Table types as Kysely sees them. SQLite hands booleans back as 0/1 and
 * timestamps as ISO strings, PostgreSQL as booleans and Dates: the domain
 * modules normalise rows with the helpers in db-values.ts.
 *
 * This file is over 400 lines on purpose: it is the one list of every table and column,
 * read beside the migrations; split, a column's type would be looked for in
 * several places.
 */
export interface RenovationProjectTable {
  id: string;
  title: string;
  category: string;
  description: string;
  duration: string;
  budget: string;
  before_image_url: string;
  after_image_url: string;
  /** Null: "Before: <title>". */
  before_image_alt: string | null;
  /** Null: "After: <title>". */
  after_image_alt: string | null;
  is_active: boolean | number;
  display_order: number;
  created_at: Generated<Date | string>;
  updated_at: Generated<Date | string>;
}

/** The pipeline's statuses as the table's check allows them (migration 015); their words are app/enquiries/pipeline.ts's. */
export const STORED_ENQUIRY_STATUSES = ["new", "contacted", "valuation-booked", "instructed", "not-proceeding"] as const;
export type StoredEnquiryStatus = (typeof STORED_ENQUIRY_STATUSES)[number];

/** The kinds of enquiry as the table's check allows them (migration 017). */
export type EnquiryKind = "contact" | "valuation";

export interface ContactSubmissionTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  user_type: "landlord" | "tenant" | "investor" | "other";
  message: string;
  is_read: boolean | number;
  created_at: Generated<Date | string>;
  /** Null: not spam. Otherwise why it was filed under Spam ("honeypot", "link-in-name+too-fast", …; app/enquiries/spam.server.ts). */
  spam_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The address as UK GDPR requests compare it (foldEmail; migration 008). */
  email_folded: ColumnType<string | null, string | null | undefined, string | null>;
  /** Null: nothing noticed. Otherwise what marked it as possible spam while it stays in the inbox (migration 007). */
  spam_signals: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where it stands in the pipeline (migration 015; app/enquiries/pipeline.ts): "new" until a member changes it. */
  status: ColumnType<StoredEnquiryStatus, StoredEnquiryStatus | undefined, StoredEnquiryStatus>;
  /** Not proceeding only: why (chosen from the list or typed). */
  status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  status_changed_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The member who changed it last, as the audit log names them. */
  status_changed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the team first answered it, by a status change or a reply (migration 020, app/enquiries/first-response.server.ts); never moved once set. */
  first_response_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The member dealing with it (migration 021): null when nobody is, or the member has left the team. */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The day to follow it up, in the UK ("YYYY-MM-DD"), or null. */
  follow_up_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The contact form's or a valuation request (migration 017; app/enquiries/valuation.ts). */
  kind: ColumnType<EnquiryKind, EnquiryKind | undefined, EnquiryKind>;
  /** A valuation request's property details as JSON (decision 057); null for the contact form's. */
  details: ColumnType<string | null, string | null | undefined, string | null>;
}

/** As the table's check allows them: "password-reset" (migration 012) the reset links of issue 21, "reply" (019) a member's reply to an enquiry, "assignment" (021) telling a member an enquiry is theirs. */
export type OutboxKind = "notification" | "acknowledgement" | "invitation" | "password-reset" | "reply" | "assignment";
export type OutboxStatus = "queued" | "sending" | "sent" | "failed";

export interface EmailOutboxTable {
  id: string;
  submission_id: string | null;
  kind: OutboxKind;
  /** JSON of OutgoingEmail. */
  message: string;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  /** When the worker may (next) try; null once sent or given up. */
  next_attempt_at: Date | string | null;
  lease_token: string | null;
  lease_until: Date | string | null;
  last_error: string | null;
  sent_at: Date | string | null;
  created_at: Generated<Date | string>;
  updated_at: Generated<Date | string>;
  /** The invitation an e-mail carries (migration 012). */
  invitation_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A single-use link, put into the message only as it is sent and forgotten then (migration 012). */
  link: ColumnType<string | null, string | null | undefined, string | null>;
  /** A job not sent by then is not sent, and is deleted (migration 013); null: no such limit. */
  expires_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
}

export interface AppSecretTable {
  name: string;
  value: string;
  created_at: Generated<Date | string>;
}

export interface AdminUserTable {
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  password_hash: string;
  created_at: Generated<Date | string>;
  updated_at: Generated<Date | string>;
  /** The last successful sign-in (migration 006). */
  last_sign_in_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  /** Failed sign-ins for this e-mail since that sign-in. */
  failed_sign_ins: Generated<number>;
  /** What the member may do (app/auth/roles.ts; migration 012): given on every insert. */
  role: StoredRole;
  /** The name the member gave; null for an account made by the CLI. */
  name: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A member's role as stored (the table's CHECK names the same three); app/auth/roles.ts says what each may do. */
export const STORED_ROLES = ["owner", "editor", "enquiries"] as const;
export type StoredRole = (typeof STORED_ROLES)[number];

/** An invitation to join the team (migration 012): pending until accepted, revoked, or past expires_at. */
export interface AdminInvitationTable {
  id: string;
  email: string;
  role: StoredRole;
  /** SHA-256 (hex) of the link's token. */
  token_hash: string;
  invited_by: string | null;
  invited_by_email: string;
  created_at: Date | string;
  expires_at: Date | string;
  accepted_at: Date | string | null;
  accepted_by: string | null;
  revoked_at: Date | string | null;
}

/** One entry of the audit log (migration 012, app/audit/). Written, never updated; deleted only by retention. */
export interface AuditLogTable {
  id: Generated<number>;
  at: Date | string;
  actor_type: "member" | "cli" | "system" | "visitor";
  actor_id: string | null;
  actor_label: string;
  ip: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON of AuditDetails (app/audit/kinds.ts), or null. */
  details: string | null;
}

export interface AdminSessionTable {
  /** SHA-256 (hex) of the token in the cookie. */
  id: string;
  admin_id: string;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  /** The admin's sign-in before this session's, and the failures between the two (migration 006). */
  previous_sign_in_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  failed_sign_ins_before: Generated<number>;
  /** From the User-Agent at sign-in ("Firefox 133", "Windows 10"), and the client address (migration 013). */
  browser: ColumnType<string | null, string | null | undefined, string | null>;
  system: ColumnType<string | null, string | null | undefined, string | null>;
  client_ip: ColumnType<string | null, string | null | undefined, string | null>;
}

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** A password-reset link sent by e-mail (migration 013): only its token's hash. */
export interface PasswordResetTable {
  id: string;
  admin_id: string;
  token_hash: string;
  requested_ip: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  used_at: Nullable<Date | string>;
}

/** A member's authenticator app (migration 013); secrets are AES-256-GCM ciphertexts (app/auth/totp.server.ts). */
export interface TotpFactorTable {
  admin_id: string;
  secret: Nullable<string>;
  confirmed_at: Nullable<Date | string>;
  pending_secret: Nullable<string>;
  pending_created_at: Nullable<Date | string>;
  /** bigint: PostgreSQL hands it back as a string. */
  last_used_step: Nullable<number | string>;
}

export interface RecoveryCodeTable {
  id: string;
  admin_id: string;
  /** SHA-256 (hex) of the code, as typed without dashes, lower-cased. */
  code_hash: string;
  created_at: Date | string;
  used_at: Nullable<Date | string>;
}

export interface PasskeyTable {
  /** The credential id, base64url. */
  id: string;
  admin_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL hands it back as a string. */
  counter: ColumnType<number | string, number, number>;
  /** JSON array of transports. */
  transports: string;
  name: string;
  backed_up: boolean | number;
  created_at: Generated<Date | string>;
  last_used_at: Nullable<Date | string>;
}

export interface WebauthnChallengeTable {
  challenge: string;
  purpose: "registration" | "authentication";
  admin_id: Nullable<string>;
  /** A passkey made on an invitation's page, before its member exists (migration 014). */
  invitation_id: Nullable<string>;
  rp_id: string;
  origin: string;
  expires_at: Date | string;
}

/** An internal note on an enquiry (migration 016): never sent to the visitor, gone with the enquiry. */
export interface EnquiryNoteTable {
  id: string;
  submission_id: string;
  /** Null once the member has left the team; author_label still names them. */
  author_id: string | null;
  author_label: string;
  body: string;
  created_at: Date | string;
}

/** A member's reply to an enquiry's visitor (migration 019): sent through the outbox, gone with the enquiry. */
export interface EnquiryReplyTable {
  id: string;
  submission_id: string;
  author_id: string | null;
  author_label: string;
  subject: string;
  body: string;
  created_at: Date | string;
  outbox_job_id: string;
}

/**
 * How many enquiries each (tab, status, assignee) holds, kept by triggers
 * (migration 022, decision 063). On PostgreSQL a group may have several rows,
 * to be added up. Derived data: not in TABLES, never backed up.
 */
export interface EnquiryCountTable {
  tab: "spam" | "held" | "read" | "unread";
  status: StoredEnquiryStatus;
  /** The member's id, or "" for nobody. */
  assignee: string;
  n: number | string;
}

/** SQLite only, empty in every committed state: a row while a grouped commit defers the search index (migration 024, decision 070). */
export interface SearchDeferralTable {
  id: number;
  until_flushed: number;
}

/** SQLite only, empty in every committed state: enquiries a grouped commit puts into the search index at its end (migration 024). */
export interface SearchPendingTable {
  enquiry_rowid: number;
}

/** One row (id 1), absent until an owner saves (migration 019): reply templates, Not proceeding reasons, the acknowledgement. */
export interface EnquirySettingsTable {
  id: number;
  /** JSON of ReplyTemplate[] (app/enquiries/replies.ts). */
  templates: string;
  /** JSON of string[]. */
  reasons: string;
  acknowledgement_on: boolean | number;
  acknowledgement_text: string;
  updated_at: Date | string;
  updated_by: string;
}

/** The password was right and a code is still to come (migration 013). */
export interface PendingSignInTable {
  /** SHA-256 (hex) of the pending cookie's token. */
  id: string;
  admin_id: string;
  created_at: Date | string;
  expires_at: Date | string;
  failed_codes: Generated<number>;
}

/** One row (id 1): what the owners ask of every member's sign-in. */
export interface SignInPolicyTable {
  id: number;
  second_factor_required: boolean | number;
  updated_at: Nullable<Date | string>;
  updated_by: Nullable<string>;
}

export interface RateLimitEventTable {
  id: string;
  bucket: string;
  subject: string;
  created_at: Date | string;
}

export interface ImageTable {
  /** `<timestamp>-<random>.<ext>` in the images bucket. */
  name: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  /** JSON array of ImageVariant. */
  variants: string;
  created_at: Generated<Date | string>;
}

/** One row (id 1): bumped by triggers on every write to the public tables (migration 005). */
export interface PublicDataVersionTable {
  id: number;
  /** bigint: PostgreSQL hands it back as a string. */
  version: number | string;
}

/** Every publish of the company's site (migration 009); the newest is live. */
export interface SiteVersionTable {
  number: number;
  /** JSON text of the whole site content. */
  content: string;
  published_at: Date | string;
  /** The admin's e-mail, or "schedule" / "import". */
  published_by: string;
  restored_from: number | null;
}

/** The one draft being edited (id 1). */
export interface SiteDraftTable {
  id: number;
  content: string;
  revision: number;
  updated_at: Date | string;
  updated_by: string;
}

/** A publish set for a date and time (migration 009); done_at is set by the instance that publishes it. */
/** When a job the fleet runs once (retention, pruning) is next due (migration 010). */
export interface JobRunTable {
  name: string;
  next_run_at: Date | string;
}

/** What a limit held or refused, per bucket and 15-minute period (platform/limits/tally.server.ts). */
export interface LimitCountTable {
  bucket: string;
  period_start: Date | string;
  count: number;
  last_at: Date | string;
}

export interface SiteScheduleTable {
  id: Generated<number>;
  content: string;
  revision: number;
  publish_at: Date | string;
  scheduled_by: string;
  created_at: Date | string;
  done_at: Date | string | null;
}

export interface DatabaseSchema {
  renovation_projects: RenovationProjectTable;
  contact_submissions: ContactSubmissionTable;
  admin_users: AdminUserTable;
  admin_sessions: AdminSessionTable;
  rate_limit_events: RateLimitEventTable;
  images: ImageTable;
  email_outbox: EmailOutboxTable;
  app_secrets: AppSecretTable;
  public_data_version: PublicDataVersionTable;
  site_versions: SiteVersionTable;
  site_draft: SiteDraftTable;
  site_schedule: SiteScheduleTable;
  job_runs: JobRunTable;
  limit_counts: LimitCountTable;
  admin_invitations: AdminInvitationTable;
  audit_log: AuditLogTable;
  password_resets: PasswordResetTable;
  totp_factors: TotpFactorTable;
  recovery_codes: RecoveryCodeTable;
  passkeys: PasskeyTable;
  webauthn_challenges: WebauthnChallengeTable;
  enquiry_notes: EnquiryNoteTable;
  enquiry_replies: EnquiryReplyTable;
  enquiry_settings: EnquirySettingsTable;
  enquiry_counts: EnquiryCountTable;
  search_deferral: SearchDeferralTable;
  search_pending: SearchPendingTable;
  pending_sign_ins: PendingSignInTable;
  sign_in_policy: SignInPolicyTable;
}

/** Every table of the schema, by name: what a backup counts and a restore replaces. */
export const TABLES = [
  "renovation_projects",
  "contact_submissions",
  "admin_users",
  "admin_sessions",
  "rate_limit_events",
  "images",
  "email_outbox",
  "app_secrets",
  "public_data_version",
  "site_versions",
  "site_draft",
  "site_schedule",
  "job_runs",
  "limit_counts",
  "admin_invitations",
  "audit_log",
  "password_resets",
  "totp_factors",
  "recovery_codes",
  "passkeys",
  "webauthn_challenges",
  "pending_sign_ins",
  "sign_in_policy",
  "enquiry_notes",
  "enquiry_replies",
  "enquiry_settings",
] as const satisfies ReadonlyArray<keyof DatabaseSchema>;

/** Tables of derived data the migrations make and fill from the others (a restore makes them again): never backed up. */
export const DERIVED_TABLES = ["enquiry_counts", "search_deferral", "search_pending"] as const satisfies ReadonlyArray<keyof DatabaseSchema>;

// A table added to DatabaseSchema and not to TABLES (or DERIVED_TABLES) fails the type check here.
export const everyTableListed: Exclude<keyof DatabaseSchema, (typeof TABLES)[number] | (typeof DERIVED_TABLES)[number]> extends never ? true : never = true;

/** Kysely's own: which migrations ran (the schema's version is the last), and its lock. */
export const MIGRATION_TABLES = ["kysely_migration", "kysely_migration_lock"] as const;
