import { randomUUID } from "node:crypto";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { assignmentEmail } from "./assignment-email";
import { messageIdFor } from "./emails";
import { enqueueEmail } from "./outbox.server";

/**
 * Who deals with an enquiry, and when to follow it up (issue 22, decision
 * 061). Anyone who may open Contact Submissions can be assigned: members with
 * the Enquiries or the Owner role. Each change is written with its audit
 * entry, and the e-mail telling the member, in one transaction.
 */

export type AssignableMember = { id: string; name: string | null; email: string };

/** The roles whose members can be given an enquiry (those who may open Contact Submissions). */
const ASSIGNABLE_ROLES = ["owner", "enquiries"] as const;

/** The members an enquiry can be assigned to, by name (then address). */
export async function assignableMembers(db: Db): Promise<AssignableMember[]> {
  const rows = await db.selectFrom("admin_users").select(["id", "name", "email"]).where("role", "in", ASSIGNABLE_ROLES).orderBy("email").execute();
  return rows.sort((a, b) => memberName(a).localeCompare(memberName(b), "en-GB"));
}

/** How the interface and the e-mails name a member: their name, or their address when they gave none. */
export function memberName(member: { name: string | null; email: string }): string {
  return member.name ?? member.email;
}

/** What the e-mail to an assigned member needs; undefined when e-mail is off (the assignment is still made). */
export type AssignmentMail = { from: string; companyName: string; inboxUrl: string | undefined };

export type AssignResult = "assigned" | "unassigned" | "unchanged" | "no-such-enquiry" | "not-assignable";

/**
 * Gives an enquiry to a member (or to nobody: `assigneeId` null). The member
 * is told by e-mail through the outbox, unless they assigned it to
 * themselves or it was theirs already.
 */
export async function assignEnquiry(
  db: Db,
  { id, assigneeId }: { id: string; assigneeId: string | null },
  actor: Actor,
  mail: AssignmentMail | undefined,
  now = new Date(),
): Promise<AssignResult> {
  return inTransaction(db, async (trx) => {
    const enquiry = await trx.selectFrom("contact_submissions").select(["name", "created_at", "assigned_to"]).where("id", "=", id).executeTakeFirst();
    if (!enquiry) return "no-such-enquiry";
    if (enquiry.assigned_to === assigneeId) return "unchanged";
    const assignee =
      assigneeId === null
        ? undefined
        : await trx.selectFrom("admin_users").select(["id", "email"]).where("id", "=", assigneeId).where("role", "in", ASSIGNABLE_ROLES).executeTakeFirst();
    if (assigneeId !== null && !assignee) return "not-assignable";
    await trx
      .updateTable("contact_submissions")
      .set({ assigned_to: assigneeId, assigned_at: assigneeId === null ? null : now.toISOString() })
      .where("id", "=", id)
      .execute();
    await audit(trx, { actor, action: "enquiry-assigned", target: id, details: assigneeId === null ? undefined : { assignee: assigneeId }, at: now });
    const byThemselves = actor.kind === "member" && actor.id === assigneeId;
    if (assignee && mail && !byThemselves) {
      const assignedBy = actor.kind === "member" ? await nameOf(trx, actor.id, actor.email) : "The server";
      const jobId = randomUUID();
      const createdAt = enquiry.created_at instanceof Date ? enquiry.created_at.toISOString() : enquiry.created_at;
      await enqueueEmail(
        trx,
        {
          id: jobId,
          kind: "assignment",
          submissionId: id,
          message: assignmentEmail({
            from: mail.from,
            to: assignee.email,
            assignedBy,
            enquiry: { name: enquiry.name, createdAt },
            companyName: mail.companyName,
            inboxUrl: mail.inboxUrl,
            messageId: messageIdFor(jobId, mail.from),
          }),
        },
        now,
      );
    }
    return assigneeId === null ? "unassigned" : "assigned";
  });
}

async function nameOf(db: Db, memberId: string, email: string): Promise<string> {
  const row = await db.selectFrom("admin_users").select("name").where("id", "=", memberId).executeTakeFirst();
  return row?.name ?? email;
}

/** Sets (or clears, with null) the UK day to follow an enquiry up; false when there is no such enquiry. */
export async function setFollowUp(db: Db, id: string, day: string | null, actor: Actor, now = new Date()): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx.updateTable("contact_submissions").set({ follow_up_on: day }).where("id", "=", id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, { actor, action: "enquiry-follow-up-set", target: id, details: day === null ? undefined : { day }, at: now });
    return true;
  });
}
