import { describe, expect, it } from "vitest";
import { describeNotification } from "./notification-status";

const NOW = new Date("2026-11-22T13:00:00.000Z");
const base = { attempts: 0, lastError: null, nextAttemptAt: null, sentAt: null };

describe("a card's notification line", () => {
  it("says queued, sending, or sent with the UK time", () => {
    expect(describeNotification({ ...base, status: "queued", nextAttemptAt: NOW.toISOString() }, NOW)).toEqual({ status: "queued", failed: false });
    expect(describeNotification({ ...base, status: "sending", attempts: 1 }, NOW)).toEqual({ status: "sending", failed: false });
    // British Summer Time: an hour ahead of UTC.
    expect(describeNotification({ ...base, status: "sent", attempts: 1, sentAt: "2026-07-01T08:30:00.000Z" }, NOW)).toEqual({
      status: "sent 1 Jul 2026, 09:30",
      failed: false,
    });
  });

  it("says failed with the last error and when the next try is: today, another day, now, or never", () => {
    const failed = { ...base, status: "failed" as const, attempts: 2, lastError: "Connection refused" };
    expect(describeNotification({ ...failed, nextAttemptAt: "2026-11-22T14:05:00.000Z" }, NOW)).toEqual({
      status: "failed — Connection refused",
      next: "retrying at 14:05",
      failed: true,
    });
    expect(describeNotification({ ...failed, nextAttemptAt: "2026-11-23T09:00:00.000Z" }, NOW).next).toBe("retrying at 09:00 on 23 Nov");
    expect(describeNotification({ ...failed, nextAttemptAt: "2026-11-22T12:59:00.000Z" }, NOW).next).toBe("retrying now");
    expect(describeNotification({ ...failed, attempts: 8, nextAttemptAt: null }, NOW)).toEqual({
      status: "failed — Connection refused",
      next: "gave up after 8 attempts",
      failed: true,
    });
    expect(describeNotification({ ...failed, lastError: null, attempts: 1 }, NOW)).toEqual({
      status: "failed",
      next: "gave up after 1 attempt",
      failed: true,
    });
  });
});
