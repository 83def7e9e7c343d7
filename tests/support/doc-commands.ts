import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./server";

/** The documents a reader is sent to: the README and docs/*.md (the decision records are history, kept as written). */
export function documentFiles(): string[] {
  const docs = readdirSync(path.join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

export type ShownLine = { file: string; line: number; text: string };

/** The lines of the fenced ```sh blocks of a markdown text, with their line numbers (1-based). */
export function shellLines(file: string, markdown: string): ShownLine[] {
  const found: ShownLine[] = [];
  let inShell = false;
  let inOther = false;
  markdown.split("\n").forEach((text, index) => {
    const fence = /^\s*```(\S*)/.exec(text);
    if (fence) {
      if (inShell || inOther) [inShell, inOther] = [false, false];
      else if (fence[1] === "sh") inShell = true;
      else inOther = true;
      return;
    }
    if (inShell && text.trim() !== "" && !text.trim().startsWith("#")) found.push({ file, line: index + 1, text: text.trim() });
  });
  return found;
}

/**
 * The inline code spans of a markdown text outside fenced blocks, with their line numbers.
 * A span must close on its line (a lone backtick is returned as a span "`" to be reported).
 */
export function codeSpans(file: string, markdown: string): ShownLine[] {
  const found: ShownLine[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    else if (!fenced) {
      for (const match of text.matchAll(/`([^`]+)`/g)) found.push({ file, line: index + 1, text: match[1]! });
      if (text.replace(/`[^`]+`/g, "").includes("`")) found.push({ file, line: index + 1, text: "`" });
    }
  });
  return found;
}

/** Markdown links `[text](target)` whose target is in this repository (not http:, https:, mailto:). */
export function localLinks(file: string, markdown: string): ShownLine[] {
  const found: ShownLine[] = [];
  markdown.split("\n").forEach((text, index) => {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^(https?:|mailto:)/.test(match[1]!)) found.push({ file, line: index + 1, text: match[1]! });
    }
  });
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    anchors.add(
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return anchors;
}

/** One simple command: its words (quotes removed), and the NAME=value assignments before it or after `export`. */
export type SimpleCommand = { words: string[]; assigned: string[] };

export type ParsedLine = {
  commands: SimpleCommand[];
  /** Every variable the line assigns or reads ($NAME, ${NAME}). */
  variables: string[];
};

/**
 * A shell line as far as the docs need: commands split at `&&`, `||`, `|` and
 * `;`, words with their quotes removed, a `#` comment dropped, and each `$( … )`
 * parsed as a line of its own. No globbing, no here-documents, no line continuations.
 */
export function parseShellLine(text: string): ParsedLine {
  const commands: SimpleCommand[] = [];
  const variables = new Set<string>();
  for (const match of text.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)) variables.add(match[1]!);

  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: string | undefined;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(simpleCommand(words));
    words = [];
  };

  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quote !== "'" && character === "$" && text[index + 1] === "(") {
      let depth = 1;
      let end = index + 2;
      for (; end < text.length && depth > 0; end++) {
        if (text[end] === "(") depth++;
        if (text[end] === ")") depth--;
      }
      const inner = parseShellLine(text.slice(index + 2, end - 1));
      commands.push(...inner.commands);
      for (const name of inner.variables) variables.add(name);
      word += "$(…)";
      inWord = true;
      index = end - 1;
      continue;
    }
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      else word += character;
      continue;
    }
    if (character === '"' || character === "'") {
      quote = character;
      inWord = true;
    } else if (character === "#" && !inWord) {
      break;
    } else if (character === "&" || character === "|" || character === ";") {
      endCommand();
      if (text[index + 1] === character) index++;
    } else if (/\s/.test(character)) {
      endWord();
    } else {
      word += character;
      inWord = true;
    }
  }
  endCommand();
  for (const command of commands) for (const name of command.assigned) variables.add(name);
  return { commands, variables: [...variables] };
}

function simpleCommand(words: string[]): SimpleCommand {
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/;
  const assigned: string[] = [];
  let rest = words;
  if (rest[0] === "export") {
    for (const word of rest.slice(1)) assigned.push(assignment.exec(word)?.[1] ?? word);
    return { words: ["export"], assigned };
  }
  while (rest.length > 0 && assignment.test(rest[0]!)) {
    assigned.push(assignment.exec(rest[0]!)![1]!);
    rest = rest.slice(1);
  }
  return { words: rest, assigned };
}

/** The command names of `npm run admin -- help`: the indented words under "Commands:". */
export function adminCommandsIn(help: string): string[] {
  const section = help.split(/^Commands:\s*$/m)[1] ?? "";
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((match) => match[1]!);
}

/** The text of a file of the repository, or "" when there is none. */
export function repoText(file: string): string {
  try {
    return readFileSync(path.join(repoRoot, file), "utf8");
  } catch {
    return "";
  }
}
