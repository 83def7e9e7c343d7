import { createHash } from "node:crypto";
import css from "~/app.css?inline";

/**
 * The stylesheet the landing page inlines (decision 017): the same app.css
 * the other pages link, compiled by the server build. The CSP allows exactly
 * this text by its hash, so no nonce or 'unsafe-inline' is needed for it.
 */
export const INLINE_STYLE = css;
export const INLINE_STYLE_HASH = `'sha256-${createHash("sha256").update(css).digest("base64")}'`;

// Text inside <style> is not escaped: a stylesheet that closed the element would break the page.
if (/<\/style/i.test(css)) throw new Error("app.css must not contain </style");
