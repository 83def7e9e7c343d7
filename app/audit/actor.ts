import type { StoredRole as Role } from "~/platform/db/schema";

/**
 * Who makes a change, as every change in the back office is told
 * (docs/decisions/042): a signed-in member (from a client address), a command
 * of `npm run admin`, the server itself (a scheduled job, ADMIN_EMAIL at
 * start), or somebody not signed in (a failed sign-in). The change's audit
 * entry is written from it, in the change's own transaction.
 */

/** The commands of `npm run admin` that change something or copy personal data out. */
export const CLI_COMMANDS = [
  "create",
  "set-password",
  "delete",
  "unlock",
  "remove-sign-in-factors",
  "seed-demo",
  "gc-images",
  "migrate-images",
  "import-site",
  "backup",
  "restore",
] as const;
export type CliCommand = (typeof CLI_COMMANDS)[number];

/** Work the server does on its own. */
export type SystemJob = "ADMIN_EMAIL" | "scheduled publish" | "enquiry retention";

/** A signed-in member, with their role and e-mail address as they are at this request. */
export type MemberActor = { kind: "member"; id: string; email: string; role: Role; ip: string };
export type CliActor = { kind: "cli"; command: CliCommand };
export type SystemActor = { kind: "system"; job: SystemJob };
/** Somebody not signed in (yet): a sign-in attempt. */
export type VisitorActor = { kind: "visitor"; ip: string };

export type Actor = MemberActor | CliActor | SystemActor | VisitorActor;

/** The signed-in member of a request (its session), from the request's client address. */
export function memberActor(session: { adminId: string; email: string; role: Role }, ip: string): MemberActor {
  return { kind: "member", id: session.adminId, email: session.email, role: session.role, ip };
}

export function cliActor(command: CliCommand): CliActor {
  return { kind: "cli", command };
}

export function systemActor(job: SystemJob): SystemActor {
  return { kind: "system", job };
}

/** Who, in words: the member's e-mail, `npm run admin -- create`, "the server (scheduled publish)", "not signed in". */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case "member":
      return actor.email;
    case "cli":
      return `npm run admin -- ${actor.command}`;
    case "system":
      return `the server (${actor.job})`;
    case "visitor":
      return "not signed in";
  }
}

/** The client address an entry records: a member's or a visitor's; none for the CLI and the server. */
export function actorIp(actor: Actor): string | null {
  return actor.kind === "member" || actor.kind === "visitor" ? actor.ip : null;
}
