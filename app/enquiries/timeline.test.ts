import { describe, expect, it } from "vitest";
import type { NotificationState } from "./delivery";
import { TIMELINE_TEXT, buildTimeline } from "./timeline";

const RECEIVED = "2026-11-02T09:00:00.000Z";
const state = (overrides: Partial<NotificationState>): NotificationState => ({
  status: "queued",
  attempts: 0,
  lastError: null,
  nextAttemptAt: null,
  sentAt: null,
  ...overrides,
});

describe("an enquiry's timeline", () => {
  it("starts with its arrival and lists the rest oldest first, whatever order they come in", () => {
    const timeline = buildTimeline({
      receivedAt: RECEIVED,
      notification: state({ status: "sent", attempts: 1, sentAt: "2026-11-02T09:00:02.000Z" }),
      notes: [{ author: "jo@example.com", createdAt: "2026-11-02T11:00:00.000Z" }],
      facts: [
        { at: "2026-11-02T12:00:00.000Z", by: "jo@example.com", action: "follow-up", day: "2026-12-01" },
        { at: "2026-11-02T10:00:00.000Z", by: "jo@example.com", action: "status", status: "contacted" },
        { at: "2026-11-02T10:30:00.000Z", by: "jo@example.com", action: "assigned", to: "Sam Colleague" },
      ],
    });
    expect(timeline.map((entry) => entry.text)).toEqual([
      TIMELINE_TEXT.received,
      TIMELINE_TEXT.emailSent,
      "Status changed to Contacted by jo@example.com",
      "Assigned to Sam Colleague by jo@example.com",
      "Note added by jo@example.com",
      "Follow up on Tuesday 1 December 2026, set by jo@example.com",
    ]);
  });

  it("says how the e-mail to the company stands: waiting, failing with its tries, failed, or none at all", () => {
    const email = (notification: NotificationState | undefined) =>
      buildTimeline({ receivedAt: RECEIVED, notification, notes: [], facts: [] })
        .filter((entry) => entry.kind === "email")
        .map((entry) => entry.text);
    expect(email(state({}))).toEqual(["E-mail to the company waiting to be sent"]);
    expect(email(state({ attempts: 2, lastError: "connection refused", lastTriedAt: "2026-11-02T09:05:00.000Z" }))).toEqual([
      "E-mail to the company failing (2 tries so far)",
    ]);
    expect(email(state({ status: "failed", attempts: 1, lastError: "550 no such user" }))).toEqual(["E-mail to the company failed after 1 try"]);
    // Spam has no e-mail of its own.
    expect(email(undefined)).toEqual([]);
  });

  it("names unassigning and clearing a follow-up, and the spam decisions", () => {
    const texts = buildTimeline({
      receivedAt: RECEIVED,
      notification: undefined,
      notes: [],
      facts: [
        { at: "2026-11-03T09:00:00.000Z", by: "jo@example.com", action: "assigned", to: undefined },
        { at: "2026-11-03T09:01:00.000Z", by: "jo@example.com", action: "follow-up", day: undefined },
        { at: "2026-11-03T09:02:00.000Z", by: "jo@example.com", action: "marked-spam" },
        { at: "2026-11-03T09:03:00.000Z", by: "jo@example.com", action: "not-spam" },
        { at: "2026-11-03T09:04:00.000Z", by: "jo@example.com", action: "released" },
      ],
    }).map((entry) => entry.text);
    expect(texts.slice(1)).toEqual([
      "No longer assigned (by jo@example.com)",
      "Follow-up date cleared by jo@example.com",
      "Moved to Spam by jo@example.com",
      "Marked not spam by jo@example.com",
      "Released from the flood hold by jo@example.com",
    ]);
  });
});
