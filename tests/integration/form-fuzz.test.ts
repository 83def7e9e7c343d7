/**
 * Malformed form bodies, sent to every route of app/routes.ts that has an
 * action, on each backend (decision 036). Each route is reached as its form
 * is: signed in where it needs a session, from the site itself, so that the
 * request gets as far as reading its body. The bodies: url-encoded and
 * multipart, with bytes that are not UTF-8 in names and values, cut off at
 * every part boundary, with LF-only line ends, missing or mismatched
 * boundaries, files where text is expected, repeated and unknown fields,
 * thousands of fields, and seeded random damage.
 *
 * What must hold: never a 5xx; a body that cannot be read is answered 400 with
 * the form's own message (on its page, or JSON {error}); a refused request
 * changes nothing and is one log line, never a stack trace. A route with an
 * action that ROUTES does not know fails the first test: every route that
 * reads a body joins these tests.
 *
 * Seeded: FORM_FUZZ_SEED=<n> replays a run; each failure names its case.
 */
import { isDeepStrictEqual } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TEXT } from "~/admin/account-texts";
import { LOGIN_TEXT, FORM_TEXT } from "~/admin/texts";
import { memberActor } from "~/audit/actor";
import { inviteMember } from "~/auth/invitations.server";
import { FORGOT_TEXT, RESET_TEXT, TWO_STEP_TEXT } from "~/admin/sign-in-texts";
import { FAILURE_MESSAGE } from "~/enquiries/schema";
import { UPLOAD_TEXT } from "~/images/image-files";
import type { Database } from "~/platform/db/db.server";
import { createProject } from "~/projects/projects.server";
import { readDraft } from "~/website/website.server";
import { siteDefaults } from "~/website/content";
import { TEST_ADMIN, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { dataSnapshot, type DataSnapshot } from "../support/data-snapshot";
import { TEST_ACTOR } from "../support/actors";
import { validEnquiry, validValuation } from "../support/enquiries";
import { formTokensOf } from "../support/form-tokens";
import { rawExchange, rawRequest, type RawResponse } from "../support/http";
import { MULTIPART, buildMultipart, filePart, multipartCases, textPart, urlencodedCases, type Case, type Form } from "../support/form-bodies";
import { twoToneJpeg } from "../support/images";
import { appRoutes, handlersOf } from "../support/routes";
import { assertBuilt, logLines, type SpawnedServer } from "../support/server";
import { seededRandom, waitFor } from "../support/wait";
import { useSite } from "../support/sites";
import { htmlText, visibleHtml } from "../support/html";

const SEED = Number(process.env.FORM_FUZZ_SEED ?? 20_261_126);

// ---------------------------------------------------------------------------
// The routes
// ---------------------------------------------------------------------------

/**
 * What a route's form needs: the seeded enquiry and project, the page's
 * time-trap token, a picture, the Website draft's revision, and a pending
 * invitation's link.
 */
type Context = {
  enquiryId: string;
  enquiryEmail: string;
  projectId: string;
  formToken: string;
  jpeg: Buffer;
  siteRevision: string;
  invitationToken: string;
};

type FormRoute = {
  /** The route's path as app/routes.ts spells it ("" is the landing page). */
  route: string;
  /** Where its form posts, and React Router's single-fetch address for it (a browser with JavaScript uses that). */
  document: string | ((context: Context) => string);
  data?: string | ((context: Context) => string);
  /** How it answers: an HTML page, or JSON {error}. */
  answer: "page" | "json";
  /**
   * What it reads: any form (url-encoded or multipart), only multipart, only
   * JSON (a form is refused with 415), or nothing (the body is not looked at).
   */
  reads: "form" | "multipart" | "json" | "nothing";
  /** Its message for a body it cannot read: the form's own, as for its other bad input. */
  unreadable?: string;
  /** Behind the admin session. */
  session: boolean;
  /** A form that changes something when accepted, so that a refusal can be seen to change nothing. */
  urlencoded: (context: Context) => Form;
  /** The same as multipart (with the files the route takes); by default the url-encoded form's fields. */
  multipart?: (context: Context) => Form;
  /** Seeded random damage may also send a wrong password, which a sign-in rightly records: not for those. */
  randomDamage: boolean;
  /**
   * A form it refuses for what was typed may keep the good files it brought,
   * offered again on the page so they are not sent twice (the project form
   * without JavaScript: tests/e2e/admin-projects.spec.ts). Such a refusal may
   * add uploads, and nothing else.
   */
  keepsUploads?: true;
};

const text = (fields: Record<string, string>): Form => ({ fields: Object.entries(fields), files: [] });

const ROUTES: FormRoute[] = [
  {
    route: "",
    document: "/?index",
    data: "/_.data?index",
    answer: "page",
    reads: "form",
    unreadable: FAILURE_MESSAGE,
    session: false,
    urlencoded: ({ formToken }) => text({ ...validEnquiry, website: "", formToken }),
    randomDamage: true,
  },
  {
    // The valuation request's page (decision 057): the contact form's path, its own fields.
    route: "valuation",
    document: "/valuation",
    data: "/valuation.data",
    answer: "page",
    reads: "form",
    unreadable: FAILURE_MESSAGE,
    session: false,
    urlencoded: ({ formToken }) => text({ ...validValuation, website: "", formToken }),
    randomDamage: true,
  },
  {
    route: "api/contact",
    document: "/api/contact",
    answer: "json",
    reads: "json",
    session: false,
    urlencoded: ({ formToken }) => text({ ...validEnquiry, formToken }),
    randomDamage: true,
  },
  {
    route: "admin/sign-in",
    document: "/admin/sign-in",
    data: "/admin/sign-in.data",
    answer: "page",
    reads: "form",
    unreadable: LOGIN_TEXT.missing,
    session: false,
    urlencoded: () => text({ email: TEST_ADMIN.email, password: TEST_ADMIN.password, returnTo: "/admin" }),
    randomDamage: false,
  },
  {
    // The code's step, without its pending cookie: the body is read before the cookie is looked at.
    route: "admin/two-step",
    document: "/admin/two-step",
    data: "/admin/two-step.data",
    answer: "page",
    reads: "form",
    unreadable: TWO_STEP_TEXT.missing,
    session: false,
    urlencoded: () => text({ code: "123456", returnTo: "/admin" }),
    randomDamage: true,
  },
  {
    // E-mail is off on the fuzzed site: an accepted request queues nothing.
    route: "admin/forgot-password",
    document: "/admin/forgot-password",
    data: "/admin/forgot-password.data",
    answer: "page",
    reads: "form",
    unreadable: FORGOT_TEXT.notAnAddress,
    session: false,
    urlencoded: () => text({ email: TEST_ADMIN.email }),
    randomDamage: true,
  },
  {
    // A link that is not one we sent: the rules, then the link, are checked after the body is read.
    route: "admin/reset-password",
    document: "/admin/reset-password",
    data: "/admin/reset-password.data",
    answer: "page",
    reads: "form",
    unreadable: RESET_TEXT.missing,
    session: false,
    urlencoded: () => text({ token: "A".repeat(43), password: "a new password for the fuzz", confirm: "a new password for the fuzz" }),
    randomDamage: true,
  },
  {
    route: "admin/sign-out",
    document: "/admin/sign-out",
    data: "/admin/sign-out.data",
    answer: "page",
    reads: "nothing",
    session: true,
    urlencoded: () => text({ intent: "sign-out" }),
    randomDamage: false,
  },
  {
    route: "admin/enquiries",
    document: "/admin/enquiries",
    data: "/admin/enquiries.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    // A card's "Mark as read".
    urlencoded: ({ enquiryId }) => text({ intent: "mark-read", id: enquiryId }),
    randomDamage: true,
  },
  {
    route: "admin/enquiries/settings",
    document: "/admin/enquiries/settings",
    data: "/admin/enquiries/settings.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    // The owner's settings (decision 059): the reasons, one a line, and the acknowledgement left off.
    urlencoded: () => text({ reasons: "Chose another agent\nFees too high", acknowledgementText: "" }),
    randomDamage: true,
  },
  {
    route: "admin/enquiries/reply",
    document: ({ enquiryId }) => `/admin/enquiries/reply?id=${enquiryId}`,
    data: ({ enquiryId }) => `/admin/enquiries/reply.data?id=${enquiryId}`,
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    // A reply (decision 059); this site has no mail server, so it is refused with the mailto link's reason.
    urlencoded: ({ enquiryId }) => text({ id: enquiryId, subject: "Re: Your enquiry", body: "Hello, thank you." }),
    randomDamage: true,
  },
  {
    route: "admin/projects",
    document: "/admin/projects",
    data: "/admin/projects.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    // A row's "Hide from homepage"; without JavaScript, Add New Project carries its two pictures.
    keepsUploads: true,
    urlencoded: ({ projectId }) => text({ intent: "toggle-project", id: projectId, active: "false" }),
    multipart: ({ jpeg }) => ({
      fields: Object.entries({
        intent: "create-project",
        title: "Fuzzed Mews House",
        category: "Kitchen Renovation",
        description: "A project the fuzz test would create.",
        duration: "2 weeks",
        budget: "£8,000",
        display_order: "",
        before_image_alt: "",
        after_image_alt: "",
        before_image_url: "",
        after_image_url: "",
      }),
      files: [
        { name: "before_image_file", filename: "before.jpg", type: "image/jpeg", data: jpeg },
        { name: "after_image_file", filename: "after.jpg", type: "image/jpeg", data: jpeg },
      ],
    }),
    randomDamage: true,
  },
  {
    route: "admin/data-requests",
    document: "/admin/data-requests",
    data: "/admin/data-requests.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    urlencoded: ({ enquiryEmail }) => text({ intent: "erase", email: enquiryEmail, confirmed: "yes" }),
    randomDamage: true,
  },
  {
    route: "admin/website",
    document: "/admin/website?section=company",
    data: "/admin/website.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    urlencoded: ({ siteRevision }) =>
      text({
        intent: "save-section",
        section: "company",
        revision: siteRevision,
        "company.name": "Fuzzed Lettings Ltd",
        "company.shortName": "Fuzzed",
        "company.phone": "020 7946 0000",
        "company.email": "hello@example.com",
        "company.address": "1 Example Street, London EC1A 1AA",
      }),
    // A section with an upload is multipart: the hero picture and its description.
    multipart: ({ siteRevision, jpeg }) => ({
      fields: Object.entries({ intent: "save-section", section: "hero", revision: siteRevision, "hero.image": "", "hero.imageAlt": "A fuzzed terrace" }),
      files: [{ name: "hero.image.file", filename: "hero.jpg", type: "image/jpeg", data: jpeg }],
    }),
    randomDamage: true,
  },
  {
    route: "admin/team",
    document: "/admin/team",
    data: "/admin/team.data",
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: true,
    urlencoded: () => text({ intent: "invite", email: "fuzzed.invitee@example.com", role: "editor" }),
    randomDamage: true,
  },
  {
    // The invitation's page: open to anybody with the link, which is in its address.
    route: "admin/join",
    document: ({ invitationToken }) => `/admin/join?token=${invitationToken}`,
    data: ({ invitationToken }) => `/admin/join.data?token=${invitationToken}`,
    answer: "page",
    reads: "form",
    unreadable: FORM_TEXT.notUnderstood,
    session: false,
    urlencoded: () => text({ name: "Fuzzed Joiner", password: "a long password for the fuzzed joiner" }),
    randomDamage: true,
  },
  {
    route: "admin/account",
    document: "/admin/account",
    data: "/admin/account.data",
    answer: "page",
    reads: "form",
    unreadable: ACCOUNT_TEXT.invalid,
    session: true,
    // The owners' requirement (the test admin is an owner); the forms that ask for a password are left out, as the sign-in's are.
    urlencoded: () => text({ intent: "second-factor-policy", required: "yes" }),
    randomDamage: true,
  },
  {
    route: "api/admin/passkeys",
    document: "/api/admin/passkeys",
    answer: "json",
    reads: "json",
    session: true,
    urlencoded: () => text({ step: "options" }),
    randomDamage: true,
  },
  {
    route: "api/passkey-sign-in",
    document: "/api/passkey-sign-in",
    answer: "json",
    reads: "json",
    session: false,
    urlencoded: () => text({ step: "options" }),
    randomDamage: true,
  },
  {
    // "Join with a passkey" on the invitation's page: the body names the invitation (its link is checked after the body is read).
    route: "api/join-passkey",
    document: "/api/join-passkey",
    answer: "json",
    reads: "json",
    session: false,
    urlencoded: ({ invitationToken }) => text({ step: "options", token: invitationToken }),
    randomDamage: true,
  },
  {
    route: "api/admin/images",
    document: "/api/admin/images",
    answer: "json",
    reads: "multipart",
    unreadable: UPLOAD_TEXT.unreadable,
    session: true,
    urlencoded: () => text({ note: "not a picture" }),
    multipart: ({ jpeg }) => ({ fields: [], files: [{ name: "file", filename: "photo.jpg", type: "image/jpeg", data: jpeg }] }),
    randomDamage: true,
  },
];

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

beforeAll(() => assertBuilt());

/** A pending invitation of the test admin's (e-mail off), by its link's token. */
async function invitationToken(reader: Database): Promise<string> {
  const owner = await reader.db.selectFrom("admin_users").select("id").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow();
  const actor = memberActor({ adminId: owner.id, email: TEST_ADMIN.email, role: "owner" }, "127.0.0.1");
  const invited = await inviteMember(reader.db, { email: "fuzzed.joiner@example.com", role: "editor" }, actor, {
    mail: undefined,
    companyName: "Fuzz",
    siteUrl: "http://x",
  });
  if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
  return new URL(invited.delivery.link).searchParams.get("token")!;
}

describe("the routes that read a body", () => {
  it("are all in the fuzz table, and the table has no route that is gone", async () => {
    const withAction: string[] = [];
    for (const route of await appRoutes()) if ((await handlersOf(route)).includes("action")) withAction.push(route.path);
    // Guards the discovery itself: if it found nothing, the comparison would prove nothing.
    expect(withAction).toContain("admin/sign-in");
    const inTable = ROUTES.map((route) => route.route);
    const missing = withAction.filter((route) => !inTable.includes(route));
    const stale = inTable.filter((route) => !withAction.includes(route));
    // missing: routes with an action to add to ROUTES in tests/integration/form-fuzz.test.ts; stale: entries for routes that are gone.
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });
});

describe.each(backends)("malformed form bodies on $name", (backend) => {
  // Far more enquiries than the limits allow by default: the limits are tested in spam.test.ts.
  const site = useSite(backend, { env: { CONTACT_RATE_LIMIT: "100000", CONTACT_SITE_LIMIT: "100000" } });
  let server: SpawnedServer;
  let reader: Database;
  let cookie: string;
  let imagesDir: string;
  let context: Context;

  beforeAll(async () => {
    ({ server, reader, cookie, imagesDir } = site);
    const seeded = await fetch(`${server.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ ...validEnquiry, email: "fuzz.seeded@example.com" }),
    });
    expect(seeded.status).toBe(201);
    context = {
      enquiryId: ((await seeded.json()) as { id: string }).id,
      enquiryEmail: "fuzz.seeded@example.com",
      projectId: (
        await createProject(
          reader.db,
          {
            title: "Fuzz Seeded Project",
            category: "Kitchen Renovation",
            description: "A project the fuzz test would hide.",
            duration: "1 week",
            budget: "£1,000",
            before_image_url: "/samples/kitchen-before.svg",
            after_image_url: "/samples/kitchen-after.svg",
          },
          TEST_ACTOR,
        )
      ).id,
      // As the page issued it to a person who took 10 s to fill in the form.
      formToken: await formTokensOf(reader.db).issue(new Date(Date.now() - 10_000)),
      jpeg: await twoToneJpeg(48, 32),
      siteRevision: "0",
      invitationToken: await invitationToken(reader),
    };
  });

  const snapshot = () => dataSnapshot(reader, imagesDir);
  const addressOf = (address: FormRoute["document"]) => (typeof address === "function" ? address(context) : address);

  /**
   * Nothing changed; for a route that keeps the uploads of a refused form,
   * nothing but uploads added (recorded, their files written, and the public
   * data's version moved on for them).
   */
  function unchanged(route: FormRoute, before: DataSnapshot, after: DataSnapshot): boolean {
    if (!route.keepsUploads) return isDeepStrictEqual(after, before);
    const { images, files, publicVersion: _movesOn, ...rest } = after;
    const { images: imagesBefore, files: filesBefore, publicVersion: _before, ...restBefore } = before;
    return (
      isDeepStrictEqual(rest, restBefore) &&
      imagesBefore.every((image) => images.some((kept) => isDeepStrictEqual(kept, image))) &&
      filesBefore.every((file) => files.includes(file))
    );
  }
  /** Where the server's output stands now: stdout and stderr grow apart, so each keeps its own place. */
  const mark = () => ({ out: server.stdout().length, err: server.stderr().length });
  /** What the server wrote since `from`, stdout then stderr. */
  const logSince = (from: ReturnType<typeof mark>) => `${fromLineStart(server.stdout(), from.out)}\n${fromLineStart(server.stderr(), from.err)}`;
  /** The output from `at` on, starting at a line's beginning: a line half-received when the mark was taken is not this test's. */
  const fromLineStart = (output: string, at: number) =>
    at === 0 || output[at - 1] === "\n" ? output.slice(at) : output.slice(output.indexOf("\n", at) + 1 || output.length);

  function send(route: FormRoute, testCase: Case, index: number, session = cookie): Promise<RawResponse> {
    // Every other case goes to the single-fetch address, where the route has one.
    const path = addressOf(route.data && index % 2 === 1 ? route.data : route.document);
    return rawRequest(server.port, {
      method: "POST",
      path,
      headers: {
        origin: server.url,
        "content-type": testCase.contentType,
        "content-length": testCase.body.length,
        ...(route.session ? { cookie: session } : {}),
      },
      body: testCase.body,
    });
  }

  /** What is wrong with an answer, or undefined. */
  function fault(route: FormRoute, testCase: Case, response: RawResponse): string | undefined {
    const { status } = response;
    if (status >= 500) return `${status}`;
    if (testCase.expect === "any") return undefined;
    const expected = route.reads === "json" || (route.reads === "multipart" && !testCase.contentType.startsWith("multipart/")) ? 415 : undefined;
    if (expected !== undefined) return status === expected ? undefined : `${status}, not ${expected}`;
    if (testCase.expect === "refused") return status >= 400 && status < 500 ? undefined : `${status}, not a refusal`;
    if (status !== 400) return `${status}, not 400`;
    const message = route.unreadable!;
    if (route.answer === "json") {
      const body = JSON.parse(response.text) as { error?: string };
      return body.error === message ? undefined : `error ${JSON.stringify(body.error)}, not ${JSON.stringify(message)}`;
    }
    const shown = response.headers["content-type"]?.startsWith("text/html")
      ? visibleHtml(response.text).includes(htmlText(message))
      : response.text.includes(JSON.stringify(message));
    return shown ? undefined : `the form's message ${JSON.stringify(message)} is not in the answer`;
  }

  const describeAnswer = (response: RawResponse) => `${response.status} ${response.text.replace(/\s+/g, " ").slice(0, 160)}`;

  /** The cases of a route, with the form as it is now (the Website draft's revision moves on with each save). */
  async function casesOf(route: FormRoute): Promise<Case[]> {
    const draft = await readDraft(reader.db, siteDefaults());
    const now = { ...context, siteRevision: String(draft.revision) };
    const random = seededRandom(SEED + [...route.route].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, 0));
    const urlencoded = route.urlencoded(now);
    return [...urlencodedCases(urlencoded, random), ...multipartCases(route.multipart?.(now) ?? urlencoded, random, route)];
  }

  /**
   * Sends the cases; returns what went wrong, each line naming the seed and
   * the case. Cases that must be refused go a few at a time, the database
   * compared before and after each few; the others one by one, compared when
   * refused.
   */
  async function fuzz(route: FormRoute, cases: Case[]): Promise<{ failures: string[]; refused: number }> {
    const failures: string[] = [];
    let refused = 0;
    const check = (testCase: Case, index: number, response: RawResponse) => {
      if (response.status >= 400) refused++;
      const wrong = fault(route, testCase, response);
      if (wrong) failures.push(`seed ${SEED}, case #${index} ${testCase.label}: ${wrong} (${describeAnswer(response)})`);
    };
    const strict = cases.map((testCase, index) => ({ testCase, index })).filter(({ testCase }) => testCase.expect !== "any");
    for (let i = 0; i < strict.length; i += 4) {
      const batch = strict.slice(i, i + 4);
      const before = await snapshot();
      const responses = await Promise.all(batch.map(({ testCase, index }) => send(route, testCase, index)));
      batch.forEach(({ testCase, index }, j) => {
        check(testCase, index, responses[j]!);
      });
      if (!isDeepStrictEqual(await snapshot(), before))
        failures.push(`seed ${SEED}: data changed by one of ${batch.map(({ testCase, index }) => `#${index} ${testCase.label}`).join("; ")}`);
    }
    let before = await snapshot();
    for (const [index, testCase] of cases.entries()) {
      if (testCase.expect !== "any") continue;
      const response = await send(route, testCase, index);
      check(testCase, index, response);
      const after = await snapshot();
      if (response.status >= 400 && !unchanged(route, before, after))
        failures.push(`seed ${SEED}, case #${index} ${testCase.label}: refused with ${response.status} but changed data`);
      before = after;
    }
    return { failures, refused };
  }

  /** The server's log since `from`: JSON lines only (nothing written around the logger), no stack trace, one line per request. */
  async function expectCleanLog(from: ReturnType<typeof mark>, requests: number) {
    const requestLines = () => logLines(logSince(from)).filter((line) => line.msg === "request");
    await waitFor(`${requests} request lines in the log`, () => requestLines().length >= requests);
    const output = logSince(from);
    const strays = output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("{"));
    expect(strays.slice(0, 5), "output that is not a log line (a stack trace?)").toEqual([]);
    expect(output, "a stack trace in the log").not.toMatch(/"stack"|\\n\s+at /);
    const perRequest = new Map<string, number>();
    for (const line of logLines(output)) if (typeof line.reqId === "string") perRequest.set(line.reqId, (perRequest.get(line.reqId) ?? 0) + 1);
    expect(
      [...perRequest].filter(([, count]) => count > 1),
      "requests with more than one log line",
    ).toEqual([]);
  }

  for (const route of ROUTES.filter((candidate) => candidate.reads !== "nothing")) {
    it(`/${route.route}: never a 5xx; what cannot be read is refused with the form's message, changing nothing, in one log line`, async () => {
      const cases = await casesOf(route);
      const from = mark();
      const { failures, refused } = await fuzz(route, cases);
      expect(failures).toEqual([]);
      // Most of them are refusals: the cases are not quietly accepted as something else.
      expect(refused).toBeGreaterThan(cases.length / 2);
      await expectCleanLog(from, cases.length);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  }

  it("a client that gives up half-way through a form: nothing changed, one log line each, no stack trace", async () => {
    const routes = ROUTES.filter((route) => route.reads === "form" || route.reads === "multipart");
    const before = await snapshot();
    const from = mark();
    for (const route of routes) {
      const form = route.multipart?.(context) ?? route.urlencoded(context);
      const { body } = buildMultipart([...form.fields.map(([name, value]) => textPart(name, value)), ...form.files.map(filePart)]);
      const head = [
        `POST ${addressOf(route.document)} HTTP/1.1`,
        `Host: 127.0.0.1:${server.port}`,
        `Origin: ${server.url}`,
        ...(route.session ? [`Cookie: ${cookie}`] : []),
        `Content-Type: ${MULTIPART}`,
        `Content-Length: ${body.length}`,
      ].join("\r\n");
      await rawExchange(server.port, Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body.subarray(0, body.length >> 1)]), { giveUp: true });
    }
    // Each is logged once, as aborted, when the server has noticed.
    await expectCleanLog(from, routes.length);
    expect(await snapshot()).toEqual(before);
  });

  it("/admin/sign-out: signs out whatever the body, never a 5xx", async () => {
    const route = ROUTES.find((candidate) => candidate.reads === "nothing")!;
    const cases = (await casesOf(route)).filter((_, index) => index % 6 === 0);
    const from = mark();
    const failures: string[] = [];
    for (const [index, testCase] of cases.entries()) {
      const session = await signInOverHttp(server);
      const response = await send(route, testCase, index, session);
      const signedOut = (await fetch(`${server.url}/api/admin/enquiries`, { headers: { cookie: session } })).status === 401;
      if (response.status >= 400 || !signedOut)
        failures.push(`seed ${SEED}, case #${index} ${testCase.label}: ${describeAnswer(response)}, signed out: ${signedOut}`);
    }
    expect(failures).toEqual([]);
    await expectCleanLog(from, cases.length * 3);
  });
});
