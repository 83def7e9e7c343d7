/**
 * The three policies of the Website tab (issue 19): each may hold the 30,000
 * characters the editor allows, in any script, and all three are saved in
 * one form; a text over the limit is refused with the field's message, not
 * with the body limit, and so is one nested deeper than a page can show. A
 * policy cannot stall or break its page: one stored before these bounds is
 * still shown. On SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { WEBSITE_TEXT, siteDefaults } from "~/website/content";
import { MAX_POLICY_NESTING, POLICY_MAX } from "~/website/sections/policies";
import { publishContent, readDraft } from "~/website/website.server";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const DEFAULTS = siteDefaults();

/** A policy of `length` characters: a heading, then paragraphs of the character. */
function policyOf(character: string, length: number): string {
  const head = "# Heading\n\n";
  const body = Array.from({ length: length - head.length }, (_, index) => (index % 80 === 79 ? "\n" : character)).join("");
  return head + body;
}

beforeAll(() => assertBuilt());

describe.each(backends)("the policies on $name", (backend) => {
  const site = useSite(backend);

  const draft = () => readDraft(site.db, DEFAULTS);
  const savePolicies = async (policies: { privacy: string; terms: string; cookies: string }, encoding: "urlencoded" | "multipart" = "urlencoded") => {
    const fields = {
      intent: "save-section",
      section: "policies",
      revision: String((await draft()).revision),
      "policies.privacy": policies.privacy,
      "policies.terms": policies.terms,
      "policies.cookies": policies.cookies,
    };
    if (encoding === "urlencoded") return site.postForm("/admin/website", fields);
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const response = await fetch(`${site.server.url}/admin/website`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: site.server.url, cookie: site.cookie },
      body: form,
    });
    return { status: response.status, text: await response.text() };
  };

  it.each([
    ["é", "urlencoded"],
    ["£", "urlencoded"],
    ["€", "multipart"],
  ] as const)("saves three policies of %s at the full length the editor allows, sent %s", async (character, encoding) => {
    const policies = { privacy: policyOf(character, POLICY_MAX), terms: policyOf(character, POLICY_MAX), cookies: policyOf(character, POLICY_MAX) };
    const answer = await savePolicies(policies, encoding);
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    expect((await draft()).content.policies).toEqual(policies);
  });

  it("refuses a policy one character over the limit with the field's message, changing nothing", async () => {
    const before = await draft();
    const answer = await savePolicies({ privacy: policyOf("é", POLICY_MAX), terms: policyOf("é", POLICY_MAX + 1), cookies: policyOf("é", POLICY_MAX) });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(WEBSITE_TEXT.tooLong("Terms of Service", POLICY_MAX));
    expect(await draft()).toEqual(before);
  });

  it("refuses a policy nested deeper than a page shows, saying so, changing nothing", async () => {
    const before = await draft();
    const nested = Array.from({ length: MAX_POLICY_NESTING + 1 }, (_, depth) => `${"  ".repeat(depth)}- level ${depth + 1}`).join("\n");
    const answer = await savePolicies({ privacy: "# Privacy\n\n- a\n  - b", terms: nested, cookies: "" });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(WEBSITE_TEXT.policyNesting("Terms of Service", MAX_POLICY_NESTING));
    expect(await draft()).toEqual(before);
  });

  it.each([
    ["a line of quote marks", ">".repeat(POLICY_MAX)],
    ["emphasis nested thousands deep", `${"*".repeat(POLICY_MAX / 2 - 1)}a${"*".repeat(POLICY_MAX / 2 - 1)}`],
    ["list items holding quotes, thousands of them", "- > a\n".repeat(POLICY_MAX / 6)],
  ])("shows a policy stored before these bounds (%s): /terms answers, with or without a query string", async (_label, terms) => {
    const content = { ...DEFAULTS, policies: { privacy: "", terms, cookies: "" } };
    await publishContent(site.db, { content: JSON.stringify(content), by: "an older release", actor: TEST_ACTOR, now: new Date() });
    for (const path of ["/terms", "/terms?utm_source=mail"]) {
      const page = await site.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text).toContain("<h1");
    }
  });
});
