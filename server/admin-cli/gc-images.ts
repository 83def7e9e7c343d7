import { cliActor } from "~/audit/actor";
import { collectUnusedImages } from "~/images/images.server";
import { type Command, UsageError, count, expectArguments } from "./command";

export const gcImages: Command = {
  arguments: "[--min-age=<hours>]",
  summary: "Remove uploaded images no project uses, older than 24 hours (or <hours>).",
  async run({ args, say, site }) {
    const minAgeHours = minAgeArgument(args);
    const { db, storage } = (await site()).services;
    const report = await collectUnusedImages({ db, storage }, { minAgeMs: minAgeHours * 3_600_000 }, cliActor("gc-images"));
    say(
      `Removed ${count(report.removed.length, "unused file")}; ` +
        `${report.inUse} in use; ${report.keptRecent} unused but younger than ${count(minAgeHours, "hour")} kept.`,
    );
    return 0;
  },
};

/** `--min-age=<hours>` (a whole number, 0 or more), 24 when absent. */
function minAgeArgument(args: string[]): number {
  expectArguments(args, 1);
  if (args.length === 0) return 24;
  const match = /^--min-age=(\d{1,6})$/.exec(args[0]!);
  if (!match) throw new UsageError(`Expected --min-age=<hours> (a whole number), got "${args[0]}".`);
  return Number(match[1]);
}
