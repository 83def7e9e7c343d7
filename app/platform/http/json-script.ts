/**
 * JSON for the inside of a <script> element: "<", ">", "&" and the two line
 * separators as \u escapes, so that no value (a company name, a project title)
 * can end the element or start markup. JSON.parse reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
