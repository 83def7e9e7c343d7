import { cliActor } from "~/audit/actor";
import { deleteAdmin } from "~/auth/admins.server";
import { emailArgument } from "./accounts";
import type { Command } from "./command";

export const deleteMember: Command = {
  arguments: "<email>",
  summary: "Delete a member and end their sessions (never the last owner).",
  async run({ args, say, site }) {
    const email = emailArgument(args);
    await deleteAdmin((await site()).services.db, email, cliActor("delete"));
    say(`Deleted the admin ${email} and ended their sessions.`);
    return 0;
  },
};
