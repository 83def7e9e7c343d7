import Bowser from "bowser";

/**
 * What a session shows of the browser that signed in: "Firefox 133" on
 * "Windows 10", from its User-Agent, by bowser (MIT; ua-parser-js 2 is
 * AGPL). Only these two labels are kept, never the whole header.
 */
export type ClientInfo = { browser: string | null; system: string | null };

const MAX_USER_AGENT = 512;
const MAX_LABEL = 60;

function label(name: string | undefined, version: string | undefined): string | null {
  const text = [name, version]
    .filter((part) => part !== undefined && part.trim() !== "")
    .join(" ")
    .trim();
  // Printable characters only: the label is shown back to the member.
  const clean = text.replace(/[^\p{L}\p{N} ._()/+-]/gu, "").slice(0, MAX_LABEL);
  return clean === "" ? null : clean;
}

/** The browser ("Chrome 131") and system ("macOS 15") a User-Agent names; null for each it does not. */
export function describeClient(userAgent: string | null | undefined): ClientInfo {
  const header = (userAgent ?? "").slice(0, MAX_USER_AGENT).trim();
  if (header === "") return { browser: null, system: null };
  const { browser, os } = Bowser.parse(header);
  // "Chrome 131.0.0.0" reads as "Chrome 131": the major version is what a person recognises.
  const major = browser.version?.split(".")[0];
  return { browser: label(browser.name, major), system: label(os.name, os.versionName ?? os.version) };
}
