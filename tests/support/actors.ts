import type { MemberActor } from "~/audit/actor";

/**
 * Who the tests' changes are made by: an owner signed in from this machine.
 * The audit log keeps no foreign key to its members, so no account is needed
 * behind it; tests of the audit log itself make real members.
 */
export const TEST_ACTOR: MemberActor = {
  kind: "member",
  id: "00000000-0000-4000-8000-00000000a11d",
  email: "tests@example.com",
  role: "owner",
  ip: "127.0.0.1",
};
