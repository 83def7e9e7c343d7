/**
 * The inbox's pages over HTTP, as a browser without JavaScript follows them
 * (decision 058): Older and Newer carry a keyset cursor and the page number,
 * every enquiry is on exactly one page (ties in created_at included), Newer
 * comes back to the pages seen, and the JSON API pages by the same cursor.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { INBOX_TEXT } from "~/admin/texts";
import { INBOX_PAGE_SIZE } from "~/enquiries/inbox.server";
import { backends } from "../support/backends";
import { visibleText } from "../support/html";
import type { RawResponse } from "../support/http";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

beforeAll(() => assertBuilt());

const COUNT = 2 * INBOX_PAGE_SIZE + 7;

/** The enquirers' names on a page, in order. */
function namesOn(response: RawResponse): string[] {
  return [...new Set([...visibleText(response.text).matchAll(/Enquirer (\d+)/g)].map((match) => match[0]))];
}

/** A pager link's address, as the browser would follow it. */
function linkOf(response: RawResponse, text: string): string | undefined {
  const match = new RegExp(`<a[^>]*href="([^"]*)"[^>]*>(?:[^<]|<!-- -->)*${text}(?:[^<]|<!-- -->)*</a>`).exec(response.text);
  return match?.[1]?.replace(/&amp;/g, "&");
}

describe.each(backends)("the inbox's pages over HTTP on $name", (backend) => {
  const site = useSite(backend);
  let expected: string[] = [];

  beforeAll(async () => {
    // Five enquiries to each millisecond: the pages' edges fall inside ties.
    const rows = Array.from({ length: COUNT }, (_, index) => ({
      id: randomUUID(),
      name: `Enquirer ${index}`,
      email: `enquirer${index}@example.com`,
      email_folded: `enquirer${index}@example.com`,
      phone: null,
      user_type: "tenant" as const,
      message: "A room to rent.",
      is_read: false,
      created_at: new Date(Date.UTC(2026, 10, 3, 12, 0, 0, Math.floor(index / 5))).toISOString(),
    }));
    await site.db.insertInto("contact_submissions").values(rows).execute();
    expected = [...rows].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1)).map((row) => row.name);
  });

  it("goes Older page by page over every enquiry once, says which page, and Newer comes back", async () => {
    const first = await site.get("/admin/enquiries", { cookie: site.cookie });
    expect(first.status).toBe(200);
    expect(visibleText(first.text)).toContain(INBOX_TEXT.pageNumber(1));
    expect(linkOf(first, INBOX_TEXT.newer)).toBeUndefined();
    const toSecond = linkOf(first, INBOX_TEXT.older);
    expect(toSecond).toMatch(/^\/admin\/enquiries\?page=2&after=/);

    const second = await site.get(toSecond!, { cookie: site.cookie });
    expect(visibleText(second.text)).toContain(INBOX_TEXT.pageNumber(2));
    const third = await site.get(linkOf(second, INBOX_TEXT.older)!, { cookie: site.cookie });
    expect(visibleText(third.text)).toContain(INBOX_TEXT.pageNumber(3));
    expect(linkOf(third, INBOX_TEXT.older)).toBeUndefined();
    expect([...namesOn(first), ...namesOn(second), ...namesOn(third)]).toEqual(expected);

    // Newer from page 3 is page 2 as it was (a cursor before its first card); from page 2, the newest page.
    const back = await site.get(linkOf(third, INBOX_TEXT.newer)!, { cookie: site.cookie });
    expect(linkOf(third, INBOX_TEXT.newer)).toMatch(/^\/admin\/enquiries\?page=2&before=/);
    expect(namesOn(back)).toEqual(namesOn(second));
    expect(visibleText(back.text)).toContain(INBOX_TEXT.pageNumber(2));
    expect(linkOf(second, INBOX_TEXT.newer)).toBe("/admin/enquiries");
  });

  it("pages the JSON API by nextCursor, and takes a cursor that is not one as none", async () => {
    const get = async (path: string) => {
      const response = await site.get(path, { cookie: site.cookie });
      expect(response.status).toBe(200);
      return JSON.parse(response.text) as { submissions: Array<{ name: string }>; nextCursor?: string; page: number; hasMore: boolean };
    };
    const names: string[] = [];
    let page = await get("/api/admin/enquiries");
    names.push(...page.submissions.map((s) => s.name));
    while (page.nextCursor) {
      page = await get(`/api/admin/enquiries?page=${page.page + 1}&after=${encodeURIComponent(page.nextCursor)}`);
      names.push(...page.submissions.map((s) => s.name));
    }
    expect(names).toEqual(expected);
    // The old ?page=n still answers its page.
    expect((await get("/api/admin/enquiries?page=2")).submissions.map((s) => s.name)).toEqual(expected.slice(INBOX_PAGE_SIZE, 2 * INBOX_PAGE_SIZE));
    const uuid = "00000000-0000-4000-8000-000000000000";
    for (const bad of [
      "nonsense",
      "2026-13-45T99:00:00.000Z_x",
      `2026-11-03T12:00:00.000Z_${"z".repeat(36)}`,
      "%00",
      `2026-02-30T12:00:00.000Z_${uuid}`,
      `2026-11-03T24:00:00.000Z_${uuid}`,
    ]) {
      const answer = await get(`/api/admin/enquiries?after=${encodeURIComponent(bad)}`);
      expect(answer.submissions.map((s) => s.name)).toEqual(expected.slice(0, INBOX_PAGE_SIZE));
    }
  });
});
