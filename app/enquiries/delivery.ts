import type { OutboxStatus } from "~/platform/db/schema";

/**
 * Where the e-mail telling the company about an enquiry has got to, as the
 * admin's card shows it. Read from email_outbox by outbox.server.ts.
 */
export type NotificationState = {
  status: OutboxStatus;
  /** Tries so far. */
  attempts: number;
  /** The last failure's reason (never credentials). */
  lastError: string | null;
  /** ISO time of the next try; null when sent or given up. */
  nextAttemptAt: string | null;
  /** ISO time the SMTP server accepted it. */
  sentAt: string | null;
  /** ISO time it last changed (queued, tried, sent): where the timeline places it while it waits or fails. */
  lastTriedAt?: string;
};

/** How e-mail stands for the whole site, for the dashboard's banner. */
export type MailHealth = {
  /** False without SMTP_URL: enquiries are only stored. */
  enabled: boolean;
  /** Notification e-mails whose last attempt failed (retrying or given up). */
  failing: number;
  lastError: string | null;
  /** Replies to visitors (sent from the dashboard) whose last attempt failed: the visitor is waiting for an answer. */
  failingReplies: number;
  replyLastError: string | null;
};
