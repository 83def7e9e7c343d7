import { describe, expect, it } from "vitest";
import { replyHref } from "~/admin/format";
import { formatSubmittedAt } from "~/platform/dates";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { NO_MAIL } from "../support/enquiries";
import { INBOX_PAGE_SIZE, countSubmissions, deleteSubmission, listSubmissions, setSubmissionRead } from "~/enquiries/inbox.server";
import { backends } from "../support/backends";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

describe.each(backends)("the enquiries inbox on $name", (backend) => {
  const data = useDatabase(backend);

  /** Stores enquiries one after another, so their created_at order is their order here. */
  async function store(names: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      const { id } = await saveEnquiry(
        data.db,
        {
          name,
          email: `${name.toLowerCase()}@example.com`,
          phone: undefined,
          userType: "tenant",
          message: `Message from ${name}`,
        },
        NO_MAIL,
      );
      ids.push(id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return ids;
  }

  it("is empty with zero counts before anything arrives", async () => {
    expect(await listSubmissions(data.db, { filter: "all" })).toEqual({
      submissions: [],
      counts: { all: 0, unread: 0, read: 0, held: 0, spam: 0 },
      statusCounts: { new: 0, contacted: 0, "valuation-booked": 0, instructed: 0, "not-proceeding": 0 },
      page: 1,
      hasMore: false,
      cursor: {},
    });
  });

  it("lists newest first, filters by read state and keeps the counts live", async () => {
    const [ada, ben, cy] = await store(["Ada", "Ben", "Cy"]);
    let all = await listSubmissions(data.db, { filter: "all" });
    expect(all.submissions.map((s) => s.name)).toEqual(["Cy", "Ben", "Ada"]);
    expect(all.counts).toEqual({ all: 3, unread: 3, read: 0, held: 0, spam: 0 });
    expect(all.submissions[0]).toMatchObject({ email: "cy@example.com", phone: null, user_type: "tenant", is_read: false });

    expect(await setSubmissionRead(data.db, ben!, true, TEST_ACTOR)).toBe(true);
    all = await listSubmissions(data.db, { filter: "all" });
    expect(all.counts).toEqual({ all: 3, unread: 2, read: 1, held: 0, spam: 0 });
    expect((await listSubmissions(data.db, { filter: "read" })).submissions.map((s) => s.name)).toEqual(["Ben"]);
    expect((await listSubmissions(data.db, { filter: "unread" })).submissions.map((s) => s.name)).toEqual(["Cy", "Ada"]);

    expect(await setSubmissionRead(data.db, ben!, false, TEST_ACTOR)).toBe(true);
    expect(await countSubmissions(data.db)).toEqual({ all: 3, unread: 3, read: 0, held: 0, spam: 0 });

    expect(await deleteSubmission(data.db, ada!, TEST_ACTOR)).toBe(true);
    expect(await deleteSubmission(data.db, cy!, TEST_ACTOR)).toBe(true);
    expect((await listSubmissions(data.db, { filter: "all" })).submissions.map((s) => s.name)).toEqual(["Ben"]);
    await deleteSubmission(data.db, ben!, TEST_ACTOR);
  });

  it("answers false, changing nothing, for an id that does not exist", async () => {
    const [kept] = await store(["Kept"]);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await setSubmissionRead(data.db, missing, true, TEST_ACTOR)).toBe(false);
    expect(await deleteSubmission(data.db, missing, TEST_ACTOR)).toBe(false);
    expect(await countSubmissions(data.db)).toEqual({ all: 1, unread: 1, read: 0, held: 0, spam: 0 });
    await deleteSubmission(data.db, kept!, TEST_ACTOR);
  });

  it("pages through a long inbox without losing or repeating one", async () => {
    const names = Array.from({ length: INBOX_PAGE_SIZE + 3 }, (_, i) => `Sender${String(i).padStart(3, "0")}`);
    await store(names);
    const first = await listSubmissions(data.db, { filter: "all" }, 1);
    const second = await listSubmissions(data.db, { filter: "all" }, 2);
    expect(first.submissions).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(second.submissions).toHaveLength(3);
    expect(second.hasMore).toBe(false);
    const seen = [...first.submissions, ...second.submissions].map((s) => s.name);
    expect(seen).toEqual([...names].reverse());
    expect(second.counts?.all).toBe(INBOX_PAGE_SIZE + 3);
  });
});

describe("how the admin shows a submission", () => {
  it("dates it in en-GB with a short month, in UK time (GMT in winter, BST in summer)", () => {
    expect(formatSubmittedAt("2026-11-22T14:05:00.000Z")).toBe("22 Nov 2026, 14:05");
    expect(formatSubmittedAt("2026-07-01T08:30:00.000Z")).toBe("1 Jul 2026, 09:30");
  });

  it("builds Reply via Email with a subject, a greeting and percent-encoding (no '+' for spaces)", () => {
    const href = replyHref({ name: "Zoë O'Neil & Co", email: "zoe+lets@example.co.uk" }, "Acme Lettings");
    const url = new URL(href);
    expect(url.protocol).toBe("mailto:");
    expect(decodeURIComponent(url.pathname)).toBe("zoe+lets@example.co.uk");
    expect(href).not.toMatch(/subject=[^&]*\+/);
    const subject = decodeURIComponent(/subject=([^&]*)/.exec(href)![1]!);
    const body = decodeURIComponent(/body=([^&]*)/.exec(href)![1]!);
    expect(subject).toBe("Re: Your inquiry to Acme Lettings");
    expect(body.startsWith("Dear Zoë O'Neil & Co,\r\n")).toBe(true);
  });
});
