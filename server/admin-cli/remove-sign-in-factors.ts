import { cliActor } from "~/audit/actor";
import { removeSignInFactors } from "~/auth/lost-factors.server";
import { emailArgument } from "./accounts";
import { type Command, count } from "./command";

export const removeSignInFactorsCommand: Command = {
  arguments: "<email>",
  summary: `For a member who lost their authenticator app, recovery codes and passkeys: removes them
and ends their sessions, so the password alone signs in (then set-password if need be).`,
  async run({ args, say, site }) {
    const email = emailArgument(args);
    const removed = await removeSignInFactors((await site()).services.db, email, cliActor("remove-sign-in-factors"));
    say(
      `Removed ${removed.totp ? "two-step sign-in, " : ""}${count(removed.recoveryCodes, "unused recovery code")} and ${count(removed.passkeys, "passkey")} ` +
        `of ${removed.email}; ended ${count(removed.endedSessions, "session")}. They sign in with their password alone now (set-password sets a new one).`,
    );
    return 0;
  },
};
