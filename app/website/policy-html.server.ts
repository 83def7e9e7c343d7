import { createHash } from "node:crypto";

/**
 * A policy's Markdown as HTML (decision 041): rendered by markdown-it, which
 * parses in time that grows with the text (react-markdown's parser took
 * seconds on texts a save allows, and overflowed its stack on deep nesting),
 * and kept by the text's hash, so each text is rendered once per process
 * however often its page is rendered.
 *
 * The rules decision 028 set stay: no raw HTML (markup typed into a policy is
 * dropped, never passed through), no images, links only to web pages, e-mail
 * addresses, phone numbers and the site's own paths, and the text's headings
 * start at h2 (the page's title is the h1) and stop at h3.
 */

/** A link's address a visitor may follow: http(s), mailto and tel, or a path of this site. */
function isSafeHref(href: string): boolean {
  const colon = href.indexOf(":");
  // No scheme before the first /, ? or #: a path, a query or a fragment of this site.
  if (colon === -1 || /[/?#]/.test(href.slice(0, colon))) return true;
  return ["http", "https", "mailto", "tel"].includes(href.slice(0, colon).toLowerCase());
}

const HEADING: Record<string, string> = { h1: "h2", h2: "h2", h3: "h3", h4: "h3", h5: "h3", h6: "h3" };

function policyRenderer(MarkdownIt: typeof import("markdown-it").default) {
  // CommonMark, as before: no tables, no strikethrough, no bare addresses made links.
  const markdown = MarkdownIt("commonmark", { html: true, linkify: false, typographer: false });
  markdown.renderer.rules.html_block = () => "";
  markdown.renderer.rules.html_inline = () => "";
  markdown.renderer.rules.image = () => "";
  // markdown-it would leave a link it does not like as its source text ("[x](javascript:…)"); it becomes a link without an address instead.
  markdown.validateLink = () => true;
  markdown.renderer.rules.link_open = (tokens, index, options, _env, renderer) => {
    const token = tokens[index]!;
    const href = token.attrGet("href");
    if (href !== null && !isSafeHref(String(href))) token.attrs = (token.attrs ?? []).filter(([name]) => name !== "href");
    return renderer.renderToken(tokens, index, options);
  };
  markdown.core.ruler.push("policy_headings", (state) => {
    for (const token of state.tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") token.tag = HEADING[token.tag] ?? token.tag;
    }
  });
  return markdown;
}

// Loaded on the first policy a visitor asks for: most requests, and start-up, never need it.
let renderer: Promise<ReturnType<typeof policyRenderer>> | undefined;

/** Enough for the three policies of the live site and of a version or two either side of it. */
const KEPT = 12;
const rendered = new Map<string, string>();

/** The policy's HTML; rendered the first time this process meets the text. */
export async function policyHtml(text: string): Promise<string> {
  const key = createHash("sha256").update(text).digest("base64url");
  const kept = rendered.get(key);
  if (kept !== undefined) {
    // Most recently used last, so the oldest is the one let go.
    rendered.delete(key);
    rendered.set(key, kept);
    return kept;
  }
  renderer ??= import("markdown-it").then(({ default: MarkdownIt }) => policyRenderer(MarkdownIt));
  const html = (await renderer).render(text);
  if (rendered.size >= KEPT) rendered.delete(rendered.keys().next().value!);
  rendered.set(key, html);
  return html;
}
