import { cliActor } from "~/audit/actor";
import { seedDemoProjects } from "~/projects/demo.server";
import { type Command, expectArguments } from "./command";

export const seedDemo: Command = {
  arguments: "",
  summary: "Add three example renovation projects with their photos (made here, no download).",
  async run({ args, say, site }) {
    expectArguments(args, 0);
    const { db, storage, log } = (await site()).services;
    const { created, skipped } = await seedDemoProjects({ db, storage, log }, cliActor("seed-demo"));
    for (const title of created) say(`Added "${title}".`);
    for (const title of skipped) say(`"${title}" is already there; left as it is.`);
    say(created.length > 0 ? "Open / to see them in the gallery, and /admin to edit them." : "Nothing to add.");
    return 0;
  },
};
