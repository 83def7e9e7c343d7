import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { edgeContrastProblem, textContrastProblem } from "./fixtures";

/*
 * The accessibility check of every spec that scans a page (accessibility.spec.ts, and the specs of a
 * screen that scan it where its states are made): axe-core's WCAG 2.2 A/AA rules and best practices,
 * and what axe-core cannot measure, measured here.
 */

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Runs axe-core and expects no violation: on the whole page, or, for a state
 * that changes one part of a page already scanned, on that part (`within`, a
 * CSS selector). A failure lists, per rule, its id, impact and help, and for
 * each element its selector and what to fix, so the message alone says where
 * to look.
 *
 * axe-core leaves the contrast of some text "to review" when it cannot work
 * out the background (a gradient, a photo, the translucent fixed header above
 * the page): that text is measured here against every colour that may be
 * beneath it, so no text goes unchecked. axe-core does not look at form
 * fields' edges and placeholders (WCAG 1.4.11, 1.4.3): they are measured too.
 */
export async function expectAccessible(page: Page, where: string, within?: string): Promise<void> {
  await finishAnimations(page);
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  if (within) builder.include(within);
  const { violations, incomplete } = await builder.analyze();
  const report = violations.map((violation) => ({
    rule: `${violation.id} (${violation.impact ?? "no impact"}): ${violation.help}`,
    elements: violation.nodes.map((node) => `${node.target.join(" >> ")}: ${node.failureSummary?.replace(/\s+/g, " ").trim() ?? ""}`),
  }));
  expect(report, `axe-core violations on ${where}`).toEqual([]);

  const contrastProblems: string[] = [];
  for (const node of incomplete.filter((result) => result.id === "color-contrast").flatMap((result) => result.nodes)) {
    const data = node.any.find((check) => check.id === "color-contrast")?.data as { expectedContrastRatio?: string } | undefined;
    const minimum = Number.parseFloat(data?.expectedContrastRatio ?? "4.5");
    const problem = await textContrastProblem(page.locator(String(node.target[0])).first(), minimum);
    if (problem) contrastProblems.push(`${node.target.join(" >> ")}: ${problem}`);
  }
  expect(contrastProblems, `contrast of the text axe-core could not measure, on ${where}`).toEqual([]);

  const fieldProblems: string[] = [];
  const fields = page.locator(
    `${within ?? "body"} :is(input:not([type="hidden"], [type="checkbox"], [type="radio"], [type="file"]), select, textarea):not([aria-hidden="true"] *)`,
  );
  for (const field of await fields.all()) {
    if (!(await field.isVisible())) continue;
    const problem = await edgeContrastProblem(field);
    if (problem) fieldProblems.push(problem);
  }
  expect(fieldProblems, `form fields whose edge or placeholder is too faint, on ${where}`).toEqual([]);
}

/** Waits until every CSS animation and transition of the page has run to its end. */
async function finishAnimations(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}
