import { AUDIT_TEXT } from "~/admin/team-texts";
import type { AuditFilters, AuditRow, AuditView } from "~/admin/team-types";
import { AUDIT_LOG_PATH } from "~/admin/tabs";
import { listAuditEntries, listAuditPeople, type AuditRecord } from "~/auth/audit-log.server";
import { parseAuditQuery, type AuditQuery } from "~/auth/audit-query";
import { listMembers } from "~/auth/team.server";
import type { Db } from "~/platform/db/db.server";
import { formatSubmittedAt } from "~/platform/dates";
import type { Log } from "~/platform/observe/log.server";

/** Where the filtered log is exported (routes/admin.team-audit-csv.ts). */
export const AUDIT_CSV_PATH = `${AUDIT_LOG_PATH}.csv`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the view shows: those of the URL the query understood, as the form's values. */
function filtersOf(params: URLSearchParams, query: AuditQuery): AuditFilters {
  const day = (name: string, understood: Date | undefined) => (understood && DAY.test(params.get(name) ?? "") ? params.get(name)! : "");
  return { person: query.personId ?? "", kind: query.kinds?.[0] ?? "", from: day("from", query.from), to: day("to", query.until) };
}

/** The query string of the filters (every kind asked for, not only the first the form shows), and `more` after them. */
function filterQuery(filters: AuditFilters, query: AuditQuery, more: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.person) params.set("person", filters.person);
  for (const kind of query.kinds ?? []) params.append("kind", kind);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  for (const [name, value] of Object.entries(more)) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** "Member: ann@example.com", "Enquiry: 3f2a…", "Website: fees". */
function recordOf(entry: AuditRecord, emails: ReadonlyMap<string, string>): string {
  const type = AUDIT_TEXT.targets[entry.targetType] ?? entry.targetType;
  if (entry.target === null) return type;
  return `${type}: ${emails.get(entry.target) ?? entry.target}`;
}

/**
 * A page of the Audit log for an owner: the entries the URL's filters select
 * (?person=&kind=&from=&to=), newest first, a page at a time by keyset
 * (?cursor=), in words and UK time; the people to filter by (members now and
 * everyone the log names as a member, by their latest address).
 */
export async function loadAuditLog({ db, log, retentionDays }: { db: Db; log: Pick<Log, "error">; retentionDays: number }, url: URL): Promise<AuditView> {
  const params = url.searchParams;
  const query = parseAuditQuery(params);
  const filters = filtersOf(params, query);
  try {
    const [page, logged, members] = await Promise.all([
      listAuditEntries(db, query, { cursor: params.get("cursor") ?? undefined }),
      listAuditPeople(db),
      listMembers(db),
    ]);
    const people = new Map(logged.map((person) => [person.id, person.email]));
    for (const member of members) people.set(member.id, member.email);
    // The invitations on this page, by the address they were sent to.
    const invitationIds = [...new Set(page.entries.filter((entry) => entry.targetType === "invitation" && entry.target).map((entry) => entry.target!))];
    const invited =
      invitationIds.length === 0 ? [] : await db.selectFrom("admin_invitations").select(["id", "email"]).where("id", "in", invitationIds).execute();
    const emails = new Map([...people, ...invited.map((row) => [row.id, row.email] as const)]);

    const entries = page.entries.map(
      (entry): AuditRow => ({
        id: entry.id,
        at: entry.at,
        when: formatSubmittedAt(entry.at),
        who: entry.actor.label,
        what: entry.actionLabel,
        record: recordOf(entry, emails),
        details: entry.detailsText,
        ip: entry.ip ?? "",
      }),
    );
    const cursor = params.get("cursor");
    return {
      status: "ok",
      entries,
      filters,
      filtered: filters.person !== "" || (query.kinds?.length ?? 0) > 0 || filters.from !== "" || filters.to !== "",
      people: [...people].map(([id, email]) => ({ id, email })).sort((a, b) => a.email.localeCompare(b.email)),
      olderHref: page.nextCursor ? `${AUDIT_LOG_PATH}${filterQuery(filters, query, { cursor: page.nextCursor })}` : undefined,
      newestHref: cursor ? `${AUDIT_LOG_PATH}${filterQuery(filters, query)}` : undefined,
      exportHref: `${AUDIT_CSV_PATH}${filterQuery(filters, query)}`,
      retentionDays,
    };
  } catch (error) {
    log.error({ err: error }, "Could not load the audit log");
    return { status: "error", filters, retentionDays };
  }
}
