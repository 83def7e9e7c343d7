import { cliActor } from "~/audit/actor";
import { createAdmin } from "~/auth/admins.server";
import { emailArgument, readNewPassword } from "./accounts";
import type { Command } from "./command";

export const create: Command = {
  arguments: "<email>",
  summary: "Create an owner (the first, or a way back in). Asks for the password (or reads it from stdin).",
  async run({ args, io, say, site }) {
    const email = emailArgument(args);
    const password = await readNewPassword(io, true);
    await createAdmin((await site()).services.db, email, password, cliActor("create"));
    say(`Created the owner ${email}. Sign in at /admin.`);
    return 0;
  },
};
