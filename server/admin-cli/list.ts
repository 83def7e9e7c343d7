import { listAdmins } from "~/auth/admins.server";
import { ROLE_LABELS } from "~/auth/roles";
import { type Command, expectArguments } from "./command";

const when = (iso: string | null) =>
  iso === null ? "-" : new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/London" }).format(new Date(iso));

export const list: Command = {
  arguments: "",
  summary: "List the team's members, with their roles and active sessions.",
  async run({ args, say, site }) {
    expectArguments(args, 0);
    const admins = await listAdmins((await site()).services.db);
    if (admins.length === 0) {
      say("No admin accounts yet. Create one with: npm run admin -- create <email>");
      return 0;
    }
    const rows = [
      ["EMAIL", "ROLE", "CREATED", "ACTIVE SESSIONS", "LAST SEEN"],
      ...admins.map((admin) => [admin.email, ROLE_LABELS[admin.role], when(admin.createdAt), String(admin.activeSessions), when(admin.lastSeenAt)]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    for (const row of rows)
      say(
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join("  ")
          .trimEnd(),
      );
    return 0;
  },
};
