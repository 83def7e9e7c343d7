import { SITE_SECTIONS, parseSection, sectionValues, type SiteContent } from "./content";

/**
 * Content that came in by another door than the Website tab (an imported
 * file) held to what a save would store: each section read back through its
 * form's parser, exactly as a save reads it, and compared with what was
 * given. A check of each field's limits (contentProblems) is not enough on
 * its own: the parsers read the fields they know and ignore the rest, so an
 * extra list item, a value of another type or a key no form has would be
 * stored as it came, and the pages, written for what a save stores, fail on
 * it (a fourth promise that is not text made / answer 500).
 */

/** What a save would store for this content, every section through its parser; undefined when a section does not parse (contentProblems says why). */
export function asSaved(content: SiteContent): SiteContent | undefined {
  let saved = content;
  try {
    for (const section of SITE_SECTIONS) {
      const parsed = parseSection(section, sectionValues(section, content), saved);
      if (!parsed.ok) return undefined;
      saved = parsed.content;
    }
  } catch {
    return undefined;
  }
  return saved;
}

const MAX_SHOWN = 60;

function shown(value: unknown): string {
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "a list";
  if (value === null || typeof value === "object") return "an object";
  const json = JSON.stringify(value);
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}…` : json;
}

function kind(value: unknown): string {
  return typeof value === "number" ? "a number" : typeof value === "boolean" ? "true or false" : typeof value === "string" ? "text" : shown(value);
}

/** Where `given` differs from `saved`, by place ("hero.promises", "company.colour"), into `out`. */
function compare(given: unknown, saved: unknown, at: string, out: string[]): void {
  if (Object.is(given, saved)) return;
  if (Array.isArray(saved)) {
    if (!Array.isArray(given)) out.push(`${at} is ${shown(given)}, where a save stores a list`);
    else if (given.length !== saved.length) out.push(`${at} has ${given.length} items, where a save stores ${saved.length}`);
    else
      given.forEach((item, index) => {
        compare(item, saved[index], `${at}.${index}`, out);
      });
    return;
  }
  if (saved !== null && typeof saved === "object") {
    if (given === null || typeof given !== "object" || Array.isArray(given)) {
      out.push(`${at} is ${shown(given)}, where a save stores an object`);
      return;
    }
    for (const key of Object.keys(given)) if (!Object.hasOwn(saved, key)) out.push(`${at}.${key} is not a field of the Website tab`);
    for (const key of Object.keys(saved)) compare((given as Record<string, unknown>)[key], (saved as Record<string, unknown>)[key], `${at}.${key}`, out);
    return;
  }
  if (typeof given !== typeof saved) out.push(`${at} is ${shown(given)}, where a save stores ${kind(saved)}`);
  else out.push(`${at} is ${shown(given)}, which a save would store as ${shown(saved)}`);
}

/**
 * The places where a file's content differs from what a save would store for
 * it, none when a save could have stored it. `file` is the content as the
 * file has it; `content` the same read over the defaults (a field a file from
 * an older release lacks takes its default, which is no fault of the file).
 */
export function differencesFromSaved(file: Record<string, unknown>, content: SiteContent): string[] {
  const out: string[] = [];
  for (const key of Object.keys(file)) if (!(SITE_SECTIONS as readonly string[]).includes(key)) out.push(`${key} is not a section of the Website tab`);
  const saved = asSaved(content);
  if (!saved) return [...out, "The site content is not in the expected shape."];
  for (const section of SITE_SECTIONS) {
    const given = file[section];
    if (given === undefined) continue;
    if (given === null || typeof given !== "object" || Array.isArray(given)) {
      out.push(`${section} is ${shown(given)}, where a save stores an object`);
      continue;
    }
    const savedSection = saved[section] as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(savedSection, key)) out.push(`${section}.${key} is not a field of the Website tab`);
      else compare((given as Record<string, unknown>)[key], savedSection[key], `${section}.${key}`, out);
    }
  }
  return out;
}
