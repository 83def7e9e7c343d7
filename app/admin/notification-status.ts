import type { NotificationState } from "~/enquiries/delivery";
import { formatSubmittedAt, formatUpcomingTime } from "~/platform/dates";
import { INBOX_TEXT } from "./texts";

/** A card's notification line, worded on the server (times in UK time, so the browser's zone cannot change them). */
export type NotificationLine = {
  /** "queued", "sent 22 Nov 2026, 14:05", "failed — Connection refused". */
  status: string;
  /** For a failed one: "retrying at 14:05", or "gave up after 5 attempts". */
  next?: string;
  failed: boolean;
};

const TEXT = INBOX_TEXT.notification;

export function describeNotification(state: NotificationState, now: Date): NotificationLine {
  switch (state.status) {
    case "queued":
      return { status: TEXT.queued, failed: false };
    case "sending":
      return { status: TEXT.sending, failed: false };
    case "sent":
      return { status: state.sentAt ? TEXT.sent(formatSubmittedAt(state.sentAt)) : TEXT.sent("").trimEnd(), failed: false };
    case "failed": {
      const status = state.lastError ? TEXT.failedWith(state.lastError) : TEXT.failed;
      const next =
        state.nextAttemptAt === null
          ? TEXT.gaveUp(state.attempts)
          : new Date(state.nextAttemptAt) <= now
            ? TEXT.retryingNow
            : TEXT.retrying(formatUpcomingTime(state.nextAttemptAt, now));
      return { status, next, failed: true };
    }
  }
}
