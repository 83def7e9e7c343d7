/**
 * The spam rules measured on a labelled corpus, through the built server on
 * each backend: real-looking enquiries typed slowly and quickly (a person
 * with autofill who pastes a prepared message), with JavaScript (the JSON API
 * with the page's token) and without (the HTML form); and posts made the way
 * bots make them. A false positive (a person filed under Spam, where nobody
 * is e-mailed) must never happen; false negatives (a bot left in the inbox,
 * marked or not) are counted and printed, and must not grow.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { formTokensOf } from "../support/form-tokens";
import { backends } from "../support/backends";
import { findEnquiry, postJson } from "../support/enquiries";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

type Fields = { name: string; email: string; phone: string; userType: string; message: string };
type Speed = "slow" | "fast";
type Way = "form" | "api";

/** What people send: landlords, tenants, investors; short and long; a link or two, or three listings. */
const PEOPLE: Fields[] = [
  {
    name: "Margaret O'Brien",
    email: "m.obrien@btinternet.com",
    phone: "07700 900123",
    userType: "landlord",
    message: "Hello, I have a two-bed flat in Croydon coming vacant in March and would like to know what your Gold plan covers. Could you call me after 5pm?",
  },
  {
    name: "Raj Patel",
    email: "raj.patel@outlook.com",
    phone: "",
    userType: "investor",
    message: "We're buying three HMOs in Leicester this year. Do you manage HMOs, and can you handle the licensing?",
  },
  {
    name: "Zoë Kowalczyk",
    email: "zoe.k@gmail.com",
    phone: "+44 20 7946 0958",
    userType: "tenant",
    message: "The boiler at 14 Elm Road has been broken since Friday and the landlord says you manage the property. Who do I speak to?",
  },
  { name: "Tom", email: "tom@example.co.uk", phone: "", userType: "other", message: "Do you cover Brighton?" },
  {
    name: "Dr. Aisha Mensah-Clarke",
    email: "aisha@mensah-clarke.co.uk",
    phone: "01632 960 001",
    userType: "landlord",
    message: "My property is listed here: https://www.rightmove.co.uk/properties/123456 — could you tell me what you'd charge to manage it?",
  },
  {
    name: "Sean & Niamh Murphy",
    email: "murphys@icloud.com",
    phone: "",
    userType: "landlord",
    message: "Photos: https://photos.app.goo.gl/abc123 and the floor plan at www.zoopla.co.uk/for-sale/details/987 — we'd like full management.",
  },
  {
    name: "Olu Adeyemi",
    email: "olu@adeyemi-property.com",
    phone: "07700 900456",
    userType: "investor",
    message:
      "Three flats we're buying: https://www.rightmove.co.uk/properties/1, https://www.rightmove.co.uk/properties/2 and https://www.rightmove.co.uk/properties/3. Can you manage all three from completion?",
  },
  {
    name: "李伟",
    email: "wei.li@qq.com",
    phone: "",
    userType: "investor",
    message: "Hello, I am an overseas investor looking at buy-to-let in Manchester. Do you offer a service for landlords abroad?\n\nThank you.",
  },
  {
    name: "Jo Smith",
    email: "jo.smith@nhs.net",
    phone: "0161 496 0000",
    userType: "tenant",
    message: "Please can you send me the tenancy agreement again? I can't find the e-mail. Ref: ES/2024/118.",
  },
  {
    name: "Gareth Llewellyn-Jones",
    email: "gareth@llj.wales",
    phone: "",
    userType: "landlord",
    message: "Bathroom refurb wanted before the next tenants move in 🙂 — budget about £6k. Is that realistic?",
  },
  {
    name: "Anna",
    email: "anna.b+lettings@proton.me",
    phone: "",
    userType: "other",
    message: "I'm a letting agent retiring next year and looking for someone to take over my 40 managed properties. Can we talk <in confidence>?",
  },
  {
    name: "Mohammed Al-Sayed",
    email: "m.alsayed@yahoo.co.uk",
    phone: "07700 900789",
    userType: "landlord",
    message: "Rent is 3 months late [again] and I need advice on a section 8 notice.",
  },
];

/** How bots post. */
type BotPost = { label: string; way: Way; fields: Fields; token: "none" | "fresh" | "aged" | "forged"; honeypot?: string; repeats?: number };
const bot = (overrides: Partial<Fields>): Fields => ({
  name: "Best Offers",
  email: "offers@spam-mailer.example",
  phone: "",
  userType: "other",
  message: "Great opportunity for your business.",
  ...overrides,
});
const LINK_SPAM = "Cheap SEO: http://a.example http://b.example http://c.example http://d.example http://e.example";
const BOTS: BotPost[] = [
  { label: "form without its token", way: "form", fields: bot({}), token: "none" },
  { label: "form with the honeypot filled", way: "form", fields: bot({}), token: "aged", honeypot: "http://spam.example" },
  { label: "API with the honeypot filled", way: "api", fields: bot({}), token: "none", honeypot: "http://spam.example" },
  { label: "form with a forged token", way: "form", fields: bot({}), token: "forged" },
  { label: "API with a forged token", way: "api", fields: bot({}), token: "forged" },
  { label: "BBCode link spam", way: "api", fields: bot({ message: "[url=http://pills.example]cheap pills[/url]" }), token: "none" },
  { label: "HTML anchor spam", way: "form", fields: bot({ message: 'Visit <a href="http://casino.example">our casino</a>' }), token: "fresh" },
  { label: "a link in the name, sent at once", way: "form", fields: bot({ name: "www.loans.example", message: "Apply today." }), token: "fresh" },
  { label: "a link in the name, with links", way: "api", fields: bot({ name: "http://seo.example", message: LINK_SPAM }), token: "none" },
  { label: "link spam sent at once, again and again", way: "api", fields: bot({ message: LINK_SPAM }), token: "fresh", repeats: 4 },
  { label: "link spam by the API, slowly", way: "api", fields: bot({ message: LINK_SPAM }), token: "none" },
  { label: "a plain sales pitch, form sent at once", way: "form", fields: bot({ message: "We build websites. Reply for a quote." }), token: "fresh" },
];

beforeAll(() => assertBuilt());

describe.each(backends)("the spam rules on a labelled corpus, on $name", (backend) => {
  // Each post comes from its own client address (X-Forwarded-For), as people do; a repeating bot from one.
  const site = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "1000", TRUST_PROXY: "loopback" } });

  /** The page's token: fresh, as a form sent back at once carries it. */
  async function freshToken(): Promise<string> {
    const html = await (await fetch(`${site.server.url}/`)).text();
    return /<input[^>]*name="formToken"[^>]*value="([^"]*)"/.exec(html)![1]!;
  }
  /** A token as a page opened a minute ago carries it: a person took their time. */
  const agedToken = () => formTokensOf(site.db).issue(new Date(Date.now() - 60_000));

  let sequence = 0;
  /** Sends one post from `client`'s address; the message gets a mark to find its row by. */
  async function send(way: Way, fields: Fields, extra: Record<string, string>, client: string): Promise<{ status: number; message: string }> {
    sequence += 1;
    const message = `${fields.message} [${client} #${sequence}]`;
    const body = { ...fields, message, ...extra };
    // A person's each post from an address of its own; each kind of bot from one address, however often it posts.
    const botIndex = BOTS.findIndex((post) => client === `bot ${post.label}`);
    const address = { "x-forwarded-for": botIndex === -1 ? `198.51.100.${(sequence % 250) + 1}` : `203.0.113.${botIndex + 1}` };
    const response =
      way === "api"
        ? await postJson(site.server.url, body, address)
        : await fetch(`${site.server.url}/?index`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", ...address },
            body: new URLSearchParams(body).toString(),
          });
    await response.arrayBuffer();
    return { status: response.status, message };
  }

  async function placement(message: string): Promise<"inbox" | "possible spam" | "spam"> {
    const [row] = await findEnquiry(site.reader, { message });
    expect(row, message).toBeDefined();
    return row!.spam_reason !== null ? "spam" : row!.spam_signals !== null ? "possible spam" : "inbox";
  }

  it("files no person under Spam, typed slowly or quickly, with or without JavaScript; counts the bots it misses", async () => {
    const people: Array<{ label: string; where: string }> = [];
    for (const [index, person] of PEOPLE.entries()) {
      for (const way of ["form", "api"] as const) {
        for (const speed of ["slow", "fast"] as Speed[]) {
          const formToken = speed === "fast" ? await freshToken() : await agedToken();
          const { status, message } = await send(way, person, { formToken, website: "" }, `person ${index} ${way} ${speed}`);
          expect(status, `${person.name} ${way} ${speed}`).toBeLessThan(300);
          people.push({ label: `${person.name} (${way === "form" ? "no JavaScript" : "JavaScript"}, ${speed})`, where: await placement(message) });
        }
      }
      // A script of the company's own, or a browser extension, posting the API without a token.
      const { message } = await send("api", person, {}, `person ${index} api no-token`);
      people.push({ label: `${person.name} (API, no token)`, where: await placement(message) });
    }

    const bots: Array<{ label: string; where: string }> = [];
    for (const post of BOTS) {
      const repeats = post.repeats ?? 1;
      for (let i = 0; i < repeats; i++) {
        const extra: Record<string, string> = {};
        if (post.token === "fresh") extra.formToken = await freshToken();
        if (post.token === "aged") extra.formToken = await agedToken();
        if (post.token === "forged") extra.formToken = `${Math.floor(Date.now() / 1000) - 600}.${"A".repeat(43)}`;
        if (post.honeypot) extra.website = post.honeypot;
        const { status, message } = await send(post.way, post.fields, extra, `bot ${post.label}`);
        // Caught or not, a bot is answered exactly as a person is.
        expect(status, post.label).toBeLessThan(300);
        if (i === repeats - 1) bots.push({ label: post.label, where: await placement(message) });
      }
    }

    const falsePositives = people.filter((person) => person.where === "spam");
    const marked = people.filter((person) => person.where === "possible spam");
    const falseNegatives = bots.filter((post) => post.where !== "spam");
    console.log(
      [
        `Spam corpus on ${backend.name}: ${people.length} posts by people, ${bots.length} kinds of bot post.`,
        `  false positives (people filed under Spam): ${falsePositives.length}`,
        `  people kept in the inbox marked as possible spam (e-mailed, subject says so): ${marked.length} — ${Object.entries(
          Object.groupBy(marked, (person) => /\(([^)]*)\)$/.exec(person.label)![1]!),
        )
          .map(([how, group]) => `${group!.length} ${how}`)
          .join(", ")}`,
        `  false negatives (bots left in the inbox): ${falseNegatives.length} of ${bots.length} — ${falseNegatives.map((post) => `${post.label} (${post.where})`).join("; ")}`,
      ].join("\n"),
    );
    expect(falsePositives).toEqual([]);
    // Measured when the rules were written (decision 019): a form without its token, slow link spam by the
    // API and a plain sales pitch sent at once are only marked as possible spam.
    expect(falseNegatives.length).toBeLessThanOrEqual(3);
    // A bot the rules do not file away is at least marked.
    expect(falseNegatives.filter((post) => post.where === "inbox")).toEqual([]);
  });
});
