import { readFile, stat } from "node:fs/promises";
import { cliActor } from "~/audit/actor";
import { siteDefaults } from "~/website/content";
import { readSiteFile } from "~/website/transfer.server";
import { importContent, withoutMissingFiles } from "~/website/website.server";
import { type Command, UsageError } from "./command";
import { fileArgument } from "./site-file";

/** A site export is a few hundred KB at most (three policies of 30,000 characters are the most of it). */
const SITE_FILE_LIMIT = 2 * 1024 * 1024;

export const importSite: Command = {
  arguments: "<file> [--publish]",
  summary: `Read such a file into the draft (and publish it with --publish). The whole file is
checked first: a bad file changes nothing.`,
  async run({ args, say, site }) {
    const publish = args.includes("--publish");
    const file = fileArgument(
      "import-site",
      args.filter((arg) => arg !== "--publish"),
    );
    const { db, company } = (await site()).services;
    const defaults = siteDefaults(company);
    let text: string;
    try {
      if ((await stat(file)).size > SITE_FILE_LIMIT) throw new UsageError(`${file} is larger than a site export can be (2 MB).`);
      text = await readFile(file, "utf8");
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`Could not read ${file}: ${(error as Error).message}`);
    }
    const read = readSiteFile(text, defaults);
    const { from, exportedAt } = read;
    const { content, cleared } = await withoutMissingFiles(db, read.content);
    if (cleared.length) say(`Not on this installation, so left out (upload again in the Website tab): ${cleared.join(", ")}.`);
    const { version } = await importContent(db, { content, defaults, publish, by: "import", actor: cliActor("import-site"), now: new Date() });
    say(
      `Imported the ${from === "draft" ? "draft" : "live content"} exported ${exportedAt} into the draft.` +
        (publish ? ` Published: version ${version} is live.` : " Preview it in the Website tab, then publish it there (or run again with --publish)."),
    );
    return 0;
  },
};
