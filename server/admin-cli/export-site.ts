import { writeFile } from "node:fs/promises";
import { siteDefaults } from "~/website/content";
import { siteFile } from "~/website/transfer.server";
import { readDraft, readLive } from "~/website/website.server";
import { type Command, UsageError } from "./command";
import { fileArgument } from "./site-file";

export const exportSite: Command = {
  arguments: "<file>",
  summary: `Write the website's content (what is live, and the draft when it has unpublished
changes) to <file> as JSON, for another installation. Never overwrites a file.`,
  async run({ args, say, site }) {
    const file = fileArgument("export-site", args);
    const { db, company } = (await site()).services;
    const defaults = siteDefaults(company);
    const [live, draft] = await Promise.all([readLive(db, defaults), readDraft(db, defaults)]);
    try {
      // The server's user's alone, like a backup: it holds the draft as well as what is live.
      await writeFile(file, siteFile(live.content, draft.unpublished ? draft.content : undefined, new Date()), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${file} exists already; choose another name.`);
      throw error;
    }
    say(
      `Wrote the website's content to ${file}${live.version === undefined ? " (nothing published yet: the standard texts)" : ` (live: version ${live.version})`}${draft.unpublished ? ", with the unpublished draft" : ""}.`,
    );
    return 0;
  },
};
