import { createHash } from "node:crypto";
import css from "~/landing.css?inline";

/**
 * The stylesheet the landing page inlines (decision 017): app.css's theme and
 * base with the utilities of what the landing page renders (landing.css,
 * decision 039), compiled by the server build. The CSP allows exactly this
 * text by its hash, so no nonce or 'unsafe-inline' is needed for it.
 */
export const INLINE_STYLE = css;
export const INLINE_STYLE_HASH = `'sha256-${createHash("sha256").update(css).digest("base64")}'`;

// Text inside <style> is not escaped: a stylesheet that closed the element would break the page.
if (/<\/style/i.test(css)) throw new Error("landing.css must not contain </style");
