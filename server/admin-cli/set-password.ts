import { cliActor } from "~/audit/actor";
import { setAdminPassword } from "~/auth/admins.server";
import { emailArgument, readNewPassword } from "./accounts";
import { type Command, count } from "./command";

export const setPassword: Command = {
  arguments: "<email>",
  summary: "Set a new password; signs the admin out everywhere and lifts a lockout.",
  async run({ args, io, say, site }) {
    const email = emailArgument(args);
    const password = await readNewPassword(io, false);
    const { endedSessions } = await setAdminPassword((await site()).services.db, email, password, cliActor("set-password"));
    say(`Set a new password for ${email}; ended ${count(endedSessions, "session")}.`);
    return 0;
  },
};
