import { cliActor } from "~/audit/actor";
import { liftLockout } from "~/auth/admins.server";
import { emailArgument } from "./accounts";
import type { Command } from "./command";

export const unlock: Command = {
  arguments: "<email>",
  summary: "Lift a sign-in lockout without changing the password.",
  async run({ args, say, site }) {
    const email = emailArgument(args);
    await liftLockout((await site()).services.db, email, cliActor("unlock"));
    say(`Lifted any sign-in lockout of ${email}.`);
    return 0;
  },
};
