/**
 * The inbox's operations (issue 5): search, spam kept apart with Not spam,
 * bulk mark and delete, the notification status on a card and the mail
 * banner. First the data layer on each backend, then the same through the
 * built server as the signed-in admin's browser sends it, with and without
 * JavaScript.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { parseSearch, type InboxFilter } from "~/enquiries/inbox";
import {
  INBOX_PAGE_SIZE,
  SEARCH_COUNT_LIMIT,
  countSubmissions,
  deleteSubmission,
  deleteSubmissions,
  listSubmissions,
  markNotSpam,
  setSubmissionsRead,
  submissionsQuery,
} from "~/enquiries/inbox.server";
import type { UserType } from "~/enquiries/schema";
import { spamSignalsLabel, type SpamSignal } from "~/enquiries/spam";
import type { Database, Db } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";
import { backends } from "../support/backends";
import { NO_MAIL, addNotification, filedAsSpam } from "../support/enquiries";
import { assertBuilt, freePort, type SpawnedServer } from "../support/server";
import { useDatabase, useSite } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

type Seed = {
  name: string;
  email?: string;
  message?: string;
  userType?: UserType;
  spam?: SpamSignal;
  /** Arrived over CONTACT_SITE_LIMIT, in a flood: held (with these signals of the spam rules, if any). */
  held?: SpamSignal[];
  read?: boolean;
  /** ISO time; the seeds of a test are given oldest first. */
  createdAt?: string;
};

/** Stores enquiries as the contact form would, then sets what the form cannot (time, read state). Ids in order. */
async function seed(db: Db, seeds: Seed[]): Promise<string[]> {
  const ids: string[] = [];
  let minute = 0;
  for (const item of seeds) {
    const { id } = await saveEnquiry(
      db,
      {
        name: item.name,
        email: item.email ?? `${item.name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
        phone: undefined,
        userType: item.userType ?? "tenant",
        message: item.message ?? `A message from ${item.name}.`,
      },
      {
        ...NO_MAIL,
        verdict: item.held?.length ? { kind: "possible-spam", signals: item.held } : filedAsSpam(item.spam),
        ...(item.held ? { flood: { siteLimit: 100, reviewUrl: undefined } } : {}),
      },
    );
    const createdAt = item.createdAt ?? new Date(Date.UTC(2026, 10, 1, 9, minute++)).toISOString();
    await db
      .updateTable("contact_submissions")
      .set({ created_at: createdAt, is_read: item.read ?? false })
      .where("id", "=", id)
      .execute();
    ids.push(id);
  }
  return ids;
}

async function jobsOf(db: Db, submissionIds: string[]): Promise<number> {
  const rows = await db.selectFrom("email_outbox").select("id").where("submission_id", "in", submissionIds).execute();
  return rows.length;
}

async function names(db: Db, filter: InboxFilter, search?: string): Promise<string[]> {
  return (await listSubmissions(db, { filter, search })).submissions.map((submission) => submission.name);
}

describe("parseSearch: the search box's text as the query uses it", () => {
  it("trims, folds white space and control characters, and cuts at 200 characters without splitting one", () => {
    expect(parseSearch(null)).toBe("");
    expect(parseSearch("   ")).toBe("");
    expect(parseSearch("  boiler\t\n repair ")).toBe("boiler repair");
    expect(parseSearch("a\u0000b")).toBe("a b");
    expect(parseSearch("x".repeat(500))).toHaveLength(200);
    // 199 letters then an emoji (two UTF-16 units): kept whole, or not at all.
    const cut = parseSearch(`${"y".repeat(199)}😀😀`);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut.endsWith("😀")).toBe(true);
  });
});

describe.each(backends)("inbox operations in the data layer on $name", (backend) => {
  const data = useDatabase(backend);
  beforeEach(async () => {
    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
  });

  it("searches name, e-mail and message, case-insensitively, combined with the filter; the counts follow the search", async () => {
    await seed(data.db, [
      { name: "Agatha Boiler", email: "agatha@example.com", message: "Hello there." },
      { name: "Bertie Wooster", email: "BOILER.fan@example.org", message: "Nothing to see.", read: true },
      { name: "Cora Crawley", email: "cora@example.com", message: "The BoIlEr in flat 2 is broken." },
      { name: "Dan Nobody", email: "dan@example.com", message: "Gutters, please." },
      { name: "Spammy Boiler", spam: "links", message: "boiler boiler http://x http://y http://z" },
    ]);
    expect(await names(data.db, "all", "boiler")).toEqual(["Cora Crawley", "Bertie Wooster", "Agatha Boiler"]);
    expect(await names(data.db, "all", "BOILER")).toEqual(["Cora Crawley", "Bertie Wooster", "Agatha Boiler"]);
    expect(await names(data.db, "unread", "boiler")).toEqual(["Cora Crawley", "Agatha Boiler"]);
    expect(await names(data.db, "read", "boiler")).toEqual(["Bertie Wooster"]);
    expect(await names(data.db, "spam", "boiler")).toEqual(["Spammy Boiler"]);
    expect(await countSubmissions(data.db, { search: "boiler" })).toEqual({ all: 3, unread: 2, read: 1, held: 0, spam: 1 });
    expect((await listSubmissions(data.db, { filter: "read", search: "boiler" })).counts).toEqual({ all: 3, unread: 2, read: 1, held: 0, spam: 1 });
    // Part of a word, of an address, of a message.
    expect(await names(data.db, "all", "woos")).toEqual(["Bertie Wooster"]);
    expect(await names(data.db, "all", "@example.org")).toEqual(["Bertie Wooster"]);
    expect(await names(data.db, "all", "flat 2")).toEqual(["Cora Crawley"]);
    expect(await names(data.db, "all", "no such words")).toEqual([]);
    expect(await countSubmissions(data.db, { search: "no such words" })).toEqual({ all: 0, unread: 0, read: 0, held: 0, spam: 0 });
    // No search: everything.
    expect(await countSubmissions(data.db)).toEqual({ all: 4, unread: 3, read: 1, held: 0, spam: 1 });
    expect(await names(data.db, "all", "")).toHaveLength(4);
  });

  it("takes %, _ and \\ in a search literally", async () => {
    await seed(data.db, [
      { name: "Percent", message: "Rent up 5% this year" },
      { name: "Fifty", message: "Rent up 50 pounds" },
      { name: "Under", email: "first_last@example.com" },
      { name: "Plain", email: "firstxlast@example.com" },
      { name: "Slash", message: "C:\\boiler\\manual.pdf" },
      { name: "Quote", message: "It's O'Neil's flat; DROP TABLE enquiries; --" },
    ]);
    expect(await names(data.db, "all", "5%")).toEqual(["Percent"]);
    expect(await names(data.db, "all", "%")).toEqual(["Percent"]);
    expect(await names(data.db, "all", "first_last")).toEqual(["Under"]);
    expect(await names(data.db, "all", "_")).toEqual(["Under"]);
    expect(await names(data.db, "all", ":\\boiler\\")).toEqual(["Slash"]);
    expect(await names(data.db, "all", "\\")).toEqual(["Slash"]);
    expect(await names(data.db, "all", "O'Neil's flat; DROP")).toEqual(["Quote"]);
    expect(await countSubmissions(data.db)).toMatchObject({ all: 6 });
  });

  it("submissionsQuery selects every row of a view, newest first, beyond one page", async () => {
    await seed(
      data.db,
      Array.from({ length: 60 }, (_, index) => ({ name: `Sender ${index}`, message: index % 2 ? "odd boiler" : "even" })),
    );
    const rows = await submissionsQuery(data.db, { filter: "all", search: "boiler" }).execute();
    expect(rows).toHaveLength(30);
    expect(rows[0]!.name).toBe("Sender 59");
    expect(rows.at(-1)!.name).toBe("Sender 1");
  });

  it("keeps spam out of All, Unread and Read, lists it under Spam newest first, and Not spam moves one to the inbox unread", async () => {
    const [real, honeypot, links] = await seed(data.db, [
      { name: "Real Person", read: true },
      { name: "Bot One", spam: "honeypot" },
      { name: "Bot Two", spam: "links", read: true },
    ]);
    expect(await names(data.db, "all")).toEqual(["Real Person"]);
    expect(await names(data.db, "unread")).toEqual([]);
    expect(await names(data.db, "read")).toEqual(["Real Person"]);
    const spam = await listSubmissions(data.db, { filter: "spam" });
    expect(spam.submissions.map((s) => [s.name, s.spam_reason])).toEqual([
      ["Bot Two", "links"],
      ["Bot One", "honeypot"],
    ]);
    expect(spam.counts).toEqual({ all: 1, unread: 0, read: 1, held: 0, spam: 2 });
    expect(spamSignalsLabel("links")).toBe("Three or more links in the message");

    expect(await markNotSpam(data.db, links!, TEST_ACTOR)).toBe("moved");
    expect(await names(data.db, "all")).toEqual(["Bot Two", "Real Person"]);
    expect(await names(data.db, "unread")).toEqual(["Bot Two"]);
    expect(await names(data.db, "spam")).toEqual(["Bot One"]);
    expect(await countSubmissions(data.db)).toEqual({ all: 2, unread: 1, read: 1, held: 0, spam: 1 });
    // Only what is under Spam: not a real one, not one twice, not one that does not exist.
    expect(await markNotSpam(data.db, real!, TEST_ACTOR)).toBe(false);
    expect(await markNotSpam(data.db, links!, TEST_ACTOR)).toBe(false);
    expect(await markNotSpam(data.db, randomUUID(), TEST_ACTOR)).toBe(false);
    expect(await countSubmissions(data.db)).toEqual({ all: 2, unread: 1, read: 1, held: 0, spam: 1 });
    expect(honeypot).toBeDefined();
  });

  it("keeps what a flood brought out of All, Unread and Read, lists it under Held, and Not spam releases one to the inbox", async () => {
    const [, quick, plain] = await seed(data.db, [
      { name: "Real Person", read: true },
      { name: "Held Quick", held: ["too-fast"] },
      { name: "Held Plain", held: [] },
      // Spam in a flood is filed under Spam, as ever.
      { name: "Held Bot", held: [], spam: "honeypot" },
    ]);
    expect(await names(data.db, "all")).toEqual(["Real Person"]);
    expect(await names(data.db, "unread")).toEqual([]);
    const held = await listSubmissions(data.db, { filter: "held" });
    expect(held.submissions.map((s) => [s.name, s.spam_signals])).toEqual([
      ["Held Plain", "flood"],
      ["Held Quick", "flood+too-fast"],
    ]);
    expect(held.counts).toEqual({ all: 1, unread: 0, read: 1, held: 2, spam: 1 });
    expect(spamSignalsLabel("flood+too-fast")).toBe(
      "Arrived during a flood: more enquiries within the hour than the site-wide limit; Sent within 3 seconds of opening the page",
    );
    // Search works within Held like any view.
    expect((await listSubmissions(data.db, { filter: "held", search: "quick" })).submissions.map((s) => s.name)).toEqual(["Held Quick"]);

    expect(await markNotSpam(data.db, quick!, TEST_ACTOR)).toBe("released");
    expect(await names(data.db, "unread")).toEqual(["Held Quick"]);
    expect(await names(data.db, "held")).toEqual(["Held Plain"]);
    expect(await markNotSpam(data.db, quick!, TEST_ACTOR)).toBe(false);
    expect(await countSubmissions(data.db)).toEqual({ all: 2, unread: 1, read: 1, held: 1, spam: 1 });
    // The audit log says it was released, once (decision 042).
    const audited = await data.db.selectFrom("audit_log").select(["action", "target_id"]).where("target_id", "=", quick!).execute();
    expect(audited).toEqual([{ action: "enquiry-released", target_id: quick }]);
    expect(plain).toBeDefined();
  });

  it("bulk marks read and unread the ones named, and answers how many there were", async () => {
    const [a, b, c] = await seed(data.db, [{ name: "A" }, { name: "B" }, { name: "C" }]);
    expect(await setSubmissionsRead(data.db, [a!, c!, randomUUID()], true, TEST_ACTOR)).toBe(2);
    expect(await names(data.db, "read")).toEqual(["C", "A"]);
    expect(await names(data.db, "unread")).toEqual(["B"]);
    expect(await setSubmissionsRead(data.db, [a!, b!], false, TEST_ACTOR)).toBe(2);
    expect(await names(data.db, "unread")).toEqual(["B", "A"]);
    expect(await setSubmissionsRead(data.db, [], true, TEST_ACTOR)).toBe(0);
  });

  it("bulk and single delete remove the submissions and their e-mail jobs, nothing else", async () => {
    const [a, b, c, d] = await seed(data.db, [{ name: "A" }, { name: "B" }, { name: "C" }, { name: "D" }]);
    await addNotification(data.db, a!, { status: "sent", attempts: 1, sentAt: new Date().toISOString() });
    await addNotification(data.db, b!, { status: "failed", attempts: 3, lastError: "Connection refused" });
    await addNotification(data.db, c!, { status: "queued" });
    await addNotification(data.db, d!, { status: "queued" });
    expect(await deleteSubmissions(data.db, [a!, b!, randomUUID()], TEST_ACTOR)).toBe(2);
    expect(await names(data.db, "all")).toEqual(["D", "C"]);
    expect(await jobsOf(data.db, [a!, b!])).toBe(0);
    expect(await jobsOf(data.db, [c!, d!])).toBe(2);
    expect(await deleteSubmission(data.db, c!, TEST_ACTOR)).toBe(true);
    expect(await jobsOf(data.db, [c!])).toBe(0);
    expect(await jobsOf(data.db, [d!])).toBe(1);
    expect(await deleteSubmission(data.db, c!, TEST_ACTOR)).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// Over HTTP, as the signed-in admin's browser sends it
// ---------------------------------------------------------------------------

/** What a person reads on the page: no scripts, no tags, entities decoded, white space folded. */
function pageText(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot));/gi, (_, hex: string, dec: string, name: string) =>
      hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : { amp: "&", lt: "<", gt: ">", quot: '"' }[name.toLowerCase()]!,
    )
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:)])/g, "$1");
}

type Element = { attrs: Record<string, string>; text: string };

/** The elements of one kind on a page (attributes in any order), with their text. */
function elementsIn(html: string, tag: "a" | "button" | "input" | "form" | "label"): Element[] {
  const pattern = tag === "input" ? /<input\b([^>]*?)\/?>/g : new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, "g");
  return [...html.matchAll(pattern)].map((match) => ({
    attrs: Object.fromEntries([...match[1]!.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((attr) => [attr[1]!, pageText(attr[2] ?? "")])),
    text: pageText(match[2] ?? "").trim(),
  }));
}

/** The first element of a kind whose text and attributes are these; undefined when there is none. */
function find(html: string, tag: Parameters<typeof elementsIn>[1], want: { text?: string; attrs?: Record<string, string> }): Element | undefined {
  return elementsIn(html, tag).find(
    (element) =>
      (want.text === undefined || element.text === want.text) && Object.entries(want.attrs ?? {}).every(([name, value]) => element.attrs[name] === value),
  );
}

/** The names on the cards of a page, top to bottom. */
function cardNamesIn(html: string): string[] {
  return [...html.matchAll(/<h3 id="[^"]*"[^>]*>([^<]*)<\/h3>/g)].map((match) => pageText(match[1]!).trim());
}

type Answer = { status: number; text: string; html: string };

/** Minutes ago, as ISO: the HTTP tests' enquiries are recent, so no retention rule can touch them. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

beforeAll(() => assertBuilt());

describe.each(backends)("inbox operations over HTTP on $name", (backend) => {
  const site = useSite(backend);
  let server: SpawnedServer, reader: Database, cookie: string;
  beforeAll(() => ({ server, reader, cookie } = site));
  beforeEach(async () => {
    await reader.db.deleteFrom("email_outbox").execute();
    await reader.db.deleteFrom("contact_submissions").execute();
  });

  const seedRecent = (seeds: Seed[]) =>
    seed(
      reader.db,
      seeds.map((item, index) => ({ ...item, createdAt: item.createdAt ?? minutesAgo(seeds.length - index) })),
    );

  async function getPage(path: string): Promise<Answer> {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
    const html = await response.text();
    return { status: response.status, html, text: pageText(html) };
  }

  /** A POST of the dashboard's form, urlencoded (repeated fields as given), as a page without JavaScript sends it. */
  async function post(fields: Array<[string, string]>, path = "/admin/enquiries"): Promise<Answer> {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const html = await response.text();
    return { status: response.status, html, text: pageText(html) };
  }

  const bulk = (intent: string, ids: string[], extra: Array<[string, string]> = []) =>
    post([["intent", intent], ...ids.map((id): [string, string] => ["ids", id]), ...extra]);

  /** Everything an action could change. */
  async function snapshot() {
    const [submissions, jobs] = await Promise.all([
      reader.db.selectFrom("contact_submissions").select(["id", "is_read", "spam_reason"]).orderBy("id").execute(),
      reader.db.selectFrom("email_outbox").select(["id", "submission_id", "status", "next_attempt_at"]).orderBy("id").execute(),
    ]);
    return { submissions: submissions.map((row) => ({ ...row, is_read: toBoolean(row.is_read) })), jobs };
  }

  async function readState(ids: string[]): Promise<Record<string, boolean | "gone">> {
    const rows = await reader.db.selectFrom("contact_submissions").select(["id", "is_read"]).where("id", "in", ids).execute();
    return Object.fromEntries(ids.map((id) => [id, rows.find((row) => row.id === id) ? toBoolean(rows.find((row) => row.id === id)!.is_read) : "gone"]));
  }

  it("searches from the page's GET form: tabs count the matches, the header still counts the whole inbox, odd input never fails", async () => {
    await seedRecent([
      { name: "Agatha Boiler" },
      { name: "Bertie Wooster", message: "My BOILER is noisy.", read: true },
      { name: "Cora Crawley", message: "Gutters." },
      { name: "Spam Boiler", spam: "links" },
    ]);
    const found = await getPage("/admin/enquiries?q=boiler");
    expect(found.status).toBe(200);
    expect(cardNamesIn(found.html)).toEqual(["Bertie Wooster", "Agatha Boiler"]);
    expect(found.text).toContain("All (2) Unread (1) Read (1) Held (0) Spam (1)");
    expect(found.text).toContain("2 unread enquiries");
    expect(found.text).toContain("Showing submissions that match “boiler”.");
    // The search box: labelled, type=search, keeps its words; the form keeps the tab and filter.
    expect(find(found.html, "label", { text: "Search submissions", attrs: { for: "inbox-search" } })).toBeDefined();
    expect(find(found.html, "input", { attrs: { id: "inbox-search", type: "search", name: "q", value: "boiler" } })).toBeDefined();
    // Tabs, export and the GDPR page keep the search where it belongs.
    expect(find(found.html, "a", { text: "Unread (1)" })?.attrs.href).toBe("/admin/enquiries?filter=unread&q=boiler");
    expect(find(found.html, "a", { text: "Export CSV" })?.attrs).toMatchObject({ href: "/admin/enquiries.csv?filter=all&q=boiler", download: "" });
    expect(find(found.html, "a", { text: "Data requests (GDPR)" })?.attrs.href).toBe("/admin/data-requests");

    const unreadOnly = await getPage("/admin/enquiries?filter=unread&q=BOILER");
    expect(cardNamesIn(unreadOnly.html)).toEqual(["Agatha Boiler"]);
    // The search form keeps the filter; the export carries both.
    expect(find(unreadOnly.html, "input", { attrs: { type: "hidden", name: "filter", value: "unread" } })).toBeDefined();
    expect(find(unreadOnly.html, "a", { text: "Export CSV" })?.attrs.href).toBe("/admin/enquiries.csv?filter=unread&q=BOILER");

    const none = await getPage("/admin/enquiries?q=zebra%25");
    expect(cardNamesIn(none.html)).toEqual([]);
    expect(none.text).toContain("No submissions match “zebra%”");
    expect(none.text).toContain("All (0) Unread (0) Read (0) Held (0) Spam (0)");
    expect(find(none.html, "a", { text: "Clear search" })?.attrs.href).toBe("/admin/enquiries");

    for (const odd of ["%00", "%25%5F%5C", "%E0%A4%A", "x".repeat(5_000), "%F0%9F%98%80".repeat(300), "'%20OR%201=1--", "%0D%0A%09"]) {
      for (const path of [`/admin/enquiries?q=${odd}`, `/admin/enquiries.data?q=${odd}`, `/api/admin/enquiries?q=${odd}`]) {
        const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
        expect(response.status, path.slice(0, 80)).toBe(200);
      }
    }
  });

  it("says a search matches more than 1,000 instead of counting it, and still shows its newest enquiries and the next page", async () => {
    // Straight into the table: 1,001 enquiries with the word, the newest last, and one without it.
    const values = Array.from({ length: SEARCH_COUNT_LIMIT + 2 }, (_, index) => ({
      id: randomUUID(),
      name: `Sender ${String(index).padStart(4, "0")}`,
      email: `sender${index}@example.com`,
      email_folded: `sender${index}@example.com`,
      user_type: "tenant" as const,
      message: index === SEARCH_COUNT_LIMIT + 1 ? "Gutters." : "The boiler again.",
      is_read: false,
      created_at: minutesAgo(2_000 - index),
    }));
    for (let start = 0; start < values.length; start += 200)
      await reader.db
        .insertInto("contact_submissions")
        .values(values.slice(start, start + 200))
        .execute();

    const found = await getPage("/admin/enquiries?q=boiler");
    expect(found.status).toBe(200);
    expect(cardNamesIn(found.html)).toEqual(
      Array.from({ length: INBOX_PAGE_SIZE }, (_, index) => `Sender ${String(SEARCH_COUNT_LIMIT - index).padStart(4, "0")}`),
    );
    expect(found.text).toContain(
      "Showing submissions that match “boiler”. More than 1,000 submissions match, newest first; the tabs count a search's matches when there are 1,000 or fewer.",
    );
    // The tabs, the statuses and Due name no number they do not know.
    expect(found.text).toContain("All Unread Read Held Spam");
    expect(find(found.html, "a", { text: "Unread" })?.attrs.href).toBe("/admin/enquiries?filter=unread&q=boiler");
    expect(found.html).toMatch(/<option value="new">New<\/option>/);
    expect(found.text).toContain("Due: to follow up today or earlier Show");
    expect(find(found.html, "a", { text: "Older submissions →" })?.attrs.href).toMatch(/^\/admin\/enquiries\?q=boiler&page=2&after=/);

    const api = (await (await fetch(`${server.url}/api/admin/enquiries?q=boiler`, { headers: { cookie } })).json()) as Record<string, unknown>;
    expect(api).toMatchObject({ matchesOver: 1000, page: 1, hasMore: true });
    expect(api).not.toHaveProperty("counts");

    // A rarer word is counted as ever.
    const rare = await getPage("/admin/enquiries?q=gutters");
    expect(rare.text).toContain("All (1) Unread (1) Read (0) Held (0) Spam (0)");
    expect(rare.text).not.toContain("More than 1,000");
  });

  it("keeps spam out of All, Unread, Read, the header and the API; Spam (n) lists it with its reason and Not spam", async () => {
    const [, bot] = await seedRecent([{ name: "Real Reader" }, { name: "Bot Linker", spam: "links" }, { name: "Bot Honey", spam: "honeypot" }]);
    const all = await getPage("/admin/enquiries");
    expect(cardNamesIn(all.html)).toEqual(["Real Reader"]);
    expect(all.text).toContain("All (1) Unread (1) Read (0) Held (0) Spam (2)");
    expect(all.text).toContain("1 unread enquiry");
    expect(find(all.html, "a", { text: "Spam (2)" })?.attrs).toMatchObject({ href: "/admin/enquiries?filter=spam", role: "tab" });

    const spam = await getPage("/admin/enquiries?filter=spam");
    expect(cardNamesIn(spam.html)).toEqual(["Bot Honey", "Bot Linker"]);
    expect(spam.text).toContain(`Caught as spam: ${spamSignalsLabel("links")}`);
    expect(spam.text).toContain(`Caught as spam: ${spamSignalsLabel("honeypot")}`);
    expect(elementsIn(spam.html, "button").filter((button) => button.text === "Not spam")).toHaveLength(2);
    expect(spam.text).not.toContain("Notification e-mail:");
    expect(spam.text).not.toContain("Mark as unread");

    const api = (await (await fetch(`${server.url}/api/admin/enquiries`, { headers: { cookie } })).json()) as {
      submissions: Array<{ name: string }>;
      counts: Record<string, number>;
    };
    expect(api.submissions.map((s) => s.name)).toEqual(["Real Reader"]);
    expect(api.counts).toEqual({ all: 1, unread: 1, read: 0, held: 0, spam: 2 });

    const moved = await post(
      [
        ["intent", "not-spam"],
        ["id", bot!],
      ],
      "/admin/enquiries?filter=spam",
    );
    expect(moved.status).toBe(200);
    expect(moved.text).toContain("Moved to the inbox as unread.");
    expect(cardNamesIn(moved.html)).toEqual(["Bot Honey"]);
    expect(moved.text).toContain("All (2) Unread (2) Read (0) Held (0) Spam (1)");
    const row = await reader.db.selectFrom("contact_submissions").select(["spam_reason", "is_read"]).where("id", "=", bot!).executeTakeFirstOrThrow();
    expect({ spam: row.spam_reason, read: toBoolean(row.is_read) }).toEqual({ spam: null, read: false });

    const before = await snapshot();
    expect(
      (
        await post([
          ["intent", "not-spam"],
          ["id", bot!],
        ])
      ).status,
    ).toBe(404);
    expect(
      (
        await post([
          ["intent", "not-spam"],
          ["id", "not-an-id"],
        ])
      ).status,
    ).toBe(400);
    expect((await post([["intent", "not-spam"]])).status).toBe(400);
    expect(await snapshot()).toEqual(before);

    const empty = await getPage("/admin/enquiries?filter=spam&q=nothing-like-this");
    expect(empty.text).toContain("No submissions match “nothing-like-this”");
    await reader.db.deleteFrom("contact_submissions").where("spam_reason", "is not", null).execute();
    expect((await getPage("/admin/enquiries?filter=spam")).text).toContain("No spam caught");
  });

  it("bulk marks read and unread the ticked submissions (repeated ids), with a notice that counts them", async () => {
    const [a, b, c] = await seedRecent([{ name: "Ann" }, { name: "Bob" }, { name: "Cat" }]);
    const page = await getPage("/admin/enquiries");
    // Each card's checkbox joins the bulk bar's form, labelled with the sender's name.
    expect(find(page.html, "input", { attrs: { type: "checkbox", name: "ids", value: a!, form: "inbox-bulk", "aria-label": "Select Ann" } })).toBeDefined();
    expect(find(page.html, "form", { attrs: { id: "inbox-bulk", method: "post" } })).toBeDefined();
    expect(find(page.html, "a", { text: "Select all on this page" })?.attrs.href).toBe("/admin/enquiries?select=all");
    for (const [intent, label] of [
      ["bulk-mark-read", "Mark as read"],
      ["bulk-mark-unread", "Mark as unread"],
      ["bulk-delete", "Delete selected"],
    ]) {
      expect(find(page.html, "button", { text: label, attrs: { type: "submit", name: "intent", value: intent! } }), label).toBeDefined();
    }

    const read = await bulk("bulk-mark-read", [a!, c!]);
    expect(read.status).toBe(200);
    expect(read.text).toContain("2 submissions marked as read.");
    expect(await readState([a!, b!, c!])).toEqual({ [a!]: true, [b!]: false, [c!]: true });
    expect(read.text).toContain("All (3) Unread (1) Read (2) Held (0) Spam (0)");

    const unread = await bulk("bulk-mark-unread", [c!, c!]);
    expect(unread.text).toContain("1 submission marked as unread.");
    expect(await readState([a!, b!, c!])).toEqual({ [a!]: true, [b!]: false, [c!]: false });

    // Without JavaScript, "Select all on this page" is a link that comes back with every box ticked.
    const all = await getPage("/admin/enquiries?select=all");
    const boxes = elementsIn(all.html, "input").filter((input) => input.attrs.form === "inbox-bulk");
    expect(boxes.map((box) => "checked" in box.attrs)).toEqual([true, true, true]);
    expect(elementsIn(page.html, "input").filter((input) => input.attrs.form === "inbox-bulk" && "checked" in input.attrs)).toEqual([]);
  });

  it("bulk delete: without JavaScript the page asks first; confirmed, the submissions and their e-mail jobs go", async () => {
    const [keep, gone1, gone2] = await seedRecent([{ name: "Keeper" }, { name: "Goner One" }, { name: "Goner Two" }]);
    await addNotification(reader.db, keep!, { status: "sent", attempts: 1, sentAt: minutesAgo(1) });
    await addNotification(reader.db, gone1!, { status: "failed", attempts: 5, lastError: "Connection refused" });
    await addNotification(reader.db, gone2!, { status: "queued" });
    const before = await snapshot();

    const asked = await bulk("bulk-delete", [gone1!, gone2!]);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain("Are you sure you want to delete 2 submissions?");
    expect(await snapshot(), "nothing is deleted before the confirmation").toEqual(before);
    // The confirmation is a form of its own with the same ids, and a Cancel link back to the view.
    const start = asked.html.indexOf("Are you sure you want to delete 2 submissions?");
    const confirmation = asked.html.slice(start, asked.html.indexOf("</form>", start));
    const fields = elementsIn(confirmation, "input").map((input): [string, string] => [input.attrs.name!, input.attrs.value!]);
    expect(new Set(fields.map(([name, value]) => `${name}=${value}`))).toEqual(
      new Set(["intent=bulk-delete", `ids=${gone1}`, `ids=${gone2}`, "confirmed=yes"]),
    );
    expect(find(asked.html.slice(start), "a", { text: "Cancel" })?.attrs.href).toBe("/admin/enquiries");

    const done = await post(fields);
    expect(done.status).toBe(200);
    expect(done.text).toContain("2 submissions deleted.");
    expect(cardNamesIn(done.html)).toEqual(["Keeper"]);
    expect(await readState([keep!, gone1!, gone2!])).toEqual({ [keep!]: false, [gone1!]: "gone", [gone2!]: "gone" });
    expect(await jobsOf(reader.db, [gone1!, gone2!])).toBe(0);
    expect(await jobsOf(reader.db, [keep!])).toBe(1);

    // The card's own Delete takes its e-mail job with it too.
    expect(
      (
        await post([
          ["intent", "delete"],
          ["id", keep!],
          ["confirmed", "yes"],
        ])
      ).text,
    ).toContain("Contact submission deleted successfully.");
    expect(await jobsOf(reader.db, [keep!])).toBe(0);
  });

  it("refuses bad bulk input with a 4xx and a clear message, changing nothing", async () => {
    const ids = await seedRecent([{ name: "Stays One" }, { name: "Stays Two" }]);
    const before = await snapshot();
    const many = Array.from({ length: 201 }, () => randomUUID());
    const cases: Array<{ what: string; answer: () => Promise<Answer>; status: number; message: string }> = [
      { what: "no ids", answer: () => bulk("bulk-mark-read", []), status: 400, message: "Select at least one submission first." },
      { what: "no ids, delete", answer: () => bulk("bulk-delete", [], [["confirmed", "yes"]]), status: 400, message: "Select at least one submission first." },
      {
        what: "201 ids",
        answer: () => bulk("bulk-delete", [...ids, ...many.slice(2)], [["confirmed", "yes"]]),
        status: 400,
        message: "Select at most 200 submissions at a time.",
      },
      {
        what: "a bad id among good ones",
        answer: () => bulk("bulk-delete", [ids[0]!, "1; DROP TABLE x", ids[1]!], [["confirmed", "yes"]]),
        status: 400,
        message: "The selection was not understood.",
      },
      { what: "an empty id", answer: () => bulk("bulk-mark-unread", [ids[0]!, ""]), status: 400, message: "The selection was not understood." },
      {
        what: "ids that exist no more",
        answer: () => bulk("bulk-mark-read", [randomUUID(), randomUUID()]),
        status: 404,
        message: "The selected submissions no longer exist.",
      },
      { what: "an unknown intent", answer: () => bulk("bulk-archive", ids), status: 400, message: "Unknown action." },
      {
        what: "retry without a failed job",
        answer: () =>
          post([
            ["intent", "retry-notification"],
            ["id", ids[0]!],
          ]),
        status: 404,
        message: "There is no failed notification e-mail to retry",
      },
      {
        what: "retry with a bad id",
        answer: () =>
          post([
            ["intent", "retry-notification"],
            ["id", "x"],
          ]),
        status: 400,
        message: "Error retrying the notification e-mail.",
      },
    ];
    for (const { what, answer, status, message } of cases) {
      const response = await answer();
      expect(response.status, what).toBe(status);
      expect(response.text, what).toContain(message);
    }
    // Multipart keeps one value per field: a bulk action sent so is refused, not applied to the first id only.
    const form = new FormData();
    form.append("intent", "bulk-mark-read");
    for (const id of ids) form.append("ids", id);
    const multipart = await fetch(`${server.url}/admin/enquiries`, { method: "POST", headers: { origin: server.url, cookie }, body: form });
    expect(multipart.status).toBe(415);
    expect(await snapshot()).toEqual(before);
  });

  it("shows each real enquiry's notification status, and Retry now makes a failed one due again", async () => {
    const [queued, sent, retrying, gaveUp, none, spam] = await seedRecent([
      { name: "Queued Quinn" },
      { name: "Sent Sam" },
      { name: "Retrying Rita" },
      { name: "Gave-up Gus" },
      { name: "No-job Nell" },
      { name: "Spam Spencer", spam: "too-fast" },
    ]);
    const retryAt = new Date(Date.now() + 90 * 60_000).toISOString();
    await addNotification(reader.db, queued!, { status: "queued", nextAttemptAt: minutesAgo(0) });
    await addNotification(reader.db, sent!, { status: "sent", attempts: 1, sentAt: "2026-07-01T08:30:00.000Z" });
    await addNotification(reader.db, retrying!, { status: "failed", attempts: 2, lastError: "Connection refused <&>", nextAttemptAt: retryAt });
    const gaveUpJob = await addNotification(reader.db, gaveUp!, { status: "failed", attempts: 8, lastError: "550 Mailbox unavailable" });
    await addNotification(reader.db, spam!, { status: "failed", attempts: 1, lastError: "never shown" });

    const page = await getPage("/admin/enquiries");
    expect(page.text).toContain("Notification e-mail: queued");
    expect(page.text).toContain("Notification e-mail: sent 1 Jul 2026, 09:30");
    const at = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" }).format(new Date(retryAt));
    expect(page.text).toMatch(new RegExp(`Notification e-mail: failed — Connection refused <&>; retrying at ${at}( on \\d+ \\w+)?`));
    expect(page.text).toContain("Notification e-mail: failed — 550 Mailbox unavailable; gave up after 8 attempts");
    expect(page.html).not.toContain("Connection refused <&>");
    expect(page.html.match(/Notification e-mail:/g), "only cards with a job").toHaveLength(4);
    expect(
      elementsIn(page.html, "button").filter((button) => button.text === "Retry now"),
      "only failed ones",
    ).toHaveLength(2);
    expect(none).toBeDefined();

    const retried = await post([
      ["intent", "retry-notification"],
      ["id", gaveUp!],
    ]);
    expect(retried.status).toBe(200);
    expect(retried.text).toContain("The notification e-mail will be sent again now.");
    const job = await reader.db.selectFrom("email_outbox").select(["next_attempt_at"]).where("id", "=", gaveUpJob).executeTakeFirstOrThrow();
    expect(job.next_attempt_at, "due again").not.toBeNull();
    expect(retried.text).toMatch(/Notification e-mail: failed — 550 Mailbox unavailable; retrying (now|at \d\d:\d\d)/);
  });

  it("says quietly that e-mail is off when SMTP_URL is not set, and nothing about retention when it is off", async () => {
    for (const tab of ["projects", "enquiries"]) {
      const page = await getPage(`/admin/${tab}`);
      expect(page.text).toContain("E-mail notifications are off: new enquiries are only shown here.");
      expect(page.text).not.toContain("Notification e-mails are failing");
      expect(page.text).not.toContain("deleted automatically");
    }
  });
});

describe.each(backends)("the dashboard's e-mail banner on $name", (backend) => {
  // E-mail on, towards a port where nothing listens: every attempt fails, as with an SMTP server down.
  const site = useSite(backend, {
    env: async () => ({
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      MAIL_FROM: "Lettings <enquiries@example.com>",
      CONTACT_NOTIFY_TO: "office@example.com",
      ENQUIRY_RETENTION_DAYS: "3650",
    }),
  });
  let server: SpawnedServer;
  let reader: Database;
  let cookie: string;
  beforeAll(() => ({ server, reader, cookie } = site));

  async function pageOf(tab: string): Promise<string> {
    const response = await fetch(`${server.url}/admin/${tab}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    return pageText(await response.text());
  }

  it("shows no banner while e-mail works, and on both tabs a prominent alert once notifications fail", async () => {
    for (const tab of ["projects", "enquiries"]) {
      const text = await pageOf(tab);
      expect(text).not.toContain("Notification e-mails are failing");
      expect(text).not.toContain("E-mail notifications are off");
    }
    expect(await pageOf("enquiries")).toContain("Enquiries older than 3650 days are deleted automatically.");
    expect(await pageOf("projects")).not.toContain("deleted automatically");

    const [first, second] = await seed(reader.db, [{ name: "Unlucky One" }, { name: "Unlucky Two" }]);
    // Given up (no next attempt), so the worker leaves them as they are.
    await addNotification(reader.db, first!, { status: "failed", attempts: 8, lastError: "Greeting never received" });
    for (const tab of ["projects", "enquiries"]) {
      expect(await pageOf(tab)).toContain(
        "Notification e-mails are failing: 1 enquiry has not been e-mailed to you. Last error: Greeting never received. It is here in Contact Submissions, and sending is retried automatically.",
      );
    }
    await addNotification(reader.db, second!, { status: "failed", attempts: 8, lastError: "Connection refused" });
    const response = await fetch(`${server.url}/admin/projects`, { headers: { cookie } });
    const html = await response.text();
    expect(pageText(html)).toMatch(
      /Notification e-mails are failing: 2 enquiries have not been e-mailed to you\. Last error: (Connection refused|Greeting never received)\. They are all here in Contact Submissions, and sending is retried automatically\./,
    );
    const banner = html.slice(html.indexOf('<div role="alert"'));
    expect(find(banner, "a", { text: "Contact Submissions" })?.attrs.href).toBe("/admin/enquiries");
  });

  it("says on both tabs, apart from the notifications, that a reply to a visitor has not been sent", async () => {
    const [visitor, another] = await seed(reader.db, [{ name: "Waiting Visitor" }, { name: "Another Visitor" }]);
    for (const tab of ["projects", "enquiries"]) expect(await pageOf(tab)).not.toContain("Replies are failing");
    await addNotification(reader.db, visitor!, { kind: "reply", status: "failed", attempts: 3, lastError: "550 Mailbox unavailable" });
    for (const tab of ["projects", "enquiries"]) {
      expect(await pageOf(tab)).toContain(
        "Replies are failing: 1 reply to a visitor has not been sent. Last error: 550 Mailbox unavailable. It shows as failing on its enquiry's card in Contact Submissions, and sending is retried automatically.",
      );
    }
    await addNotification(reader.db, another!, { kind: "reply", status: "failed", attempts: 3, lastError: "550 Mailbox unavailable" });
    expect(await pageOf("projects")).toContain("Replies are failing: 2 replies to visitors have not been sent.");
  });
});
