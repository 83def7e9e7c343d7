import { describe, expect, it } from "vitest";
import { policyHtml } from "./policy-html.server";
import { POLICY_MAX } from "./sections/policies";

const fill = (unit: string) => unit.repeat(Math.ceil(POLICY_MAX / unit.length)).slice(0, POLICY_MAX);

describe("a policy's HTML", () => {
  it("renders the Markdown a policy uses, its headings from h2 down to h3", async () => {
    const html = await policyHtml(
      [
        "# Who we are",
        "",
        "We keep **only** what we _need_.",
        "",
        "## What we keep",
        "",
        "- your name",
        "- your message",
        "",
        "1. first",
        "2. second",
        "",
        "#### Detail",
        "",
        "> A quote",
        "",
        "[The ICO](https://ico.org.uk), [write to us](mailto:info@example.com), [call](tel:+441130000000), [fees](/fees), [below](#detail)",
      ].join("\n"),
    );
    expect(html).toContain("<h2>Who we are</h2>");
    expect(html).toContain("<h2>What we keep</h2>");
    expect(html).toContain("<h3>Detail</h3>");
    expect(html).toContain("<strong>only</strong>");
    expect(html).toContain("<em>need</em>");
    expect(html).toContain("<li>your name</li>");
    expect(html).toContain("<ol>");
    expect(html).toContain("<blockquote>");
    for (const href of ["https://ico.org.uk", "mailto:info@example.com", "tel:+441130000000", "/fees", "#detail"]) expect(html).toContain(`<a href="${href}">`);
  });

  it("drops raw HTML and images, and keeps unsafe addresses out of links, showing their text", async () => {
    const html = await policyHtml(
      [
        '<script>alert("x")</script>',
        "",
        'Text <img src=x onerror=alert(1)> and <a href="javascript:alert(2)">a tag</a>.',
        "",
        "![a picture](https://example.com/tracker.png)",
        "",
        "[one](javascript:alert(3)) [two](JaVaScRiPt:alert(4)) [three](data:text/html,<b>x</b>) [four](vbscript:msgbox) [five](java&#9;script:alert(5))",
        "",
        "`<b>code</b>` stays text",
      ].join("\n"),
    );
    expect(html).not.toMatch(/<script|<img|onerror|javascript:|vbscript:|data:text/i);
    expect(html).not.toContain("alert(");
    for (const text of ["one", "two", "three", "four", "five"]) expect(html).toContain(`<a>${text}</a>`);
    expect(html).toContain("<code>&lt;b&gt;code&lt;/b&gt;</code>");
  });

  it.each([
    ["a line of quote marks", ">".repeat(POLICY_MAX)],
    ["emphasis nested thousands deep", `${"*".repeat(POLICY_MAX / 2 - 1)}a${"*".repeat(POLICY_MAX / 2 - 1)}`],
    ["thousands of emphasis marks in one paragraph", fill("*a")],
    ["list items holding quotes, thousands of them", fill("- > a\n")],
    ["quotes holding lists holding quotes", fill("> - > a\n")],
    ["thousands of open brackets", fill("[")],
    ["thousands of image openers", fill("![")],
  ])("renders %s without failing", async (_label, text) => {
    expect((await policyHtml(text)).length).toBeGreaterThan(0);
  });
});
