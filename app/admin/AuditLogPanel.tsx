import { Form, Link } from "react-router";
import { AUDIT_KINDS, AUDIT_KIND_NAMES, type AuditKind, type AuditTargetType } from "~/audit/kinds";
import { AUDIT_LOG_PATH } from "./tabs";
import { AUDIT_TEXT, TEAM_TEXT_ADMIN } from "./team-texts";
import type { AuditView } from "./team-types";
import { TeamPages } from "./TeamPanel";

const TEXT = AUDIT_TEXT;
const LINK = "text-blue-800 underline underline-offset-2 hover:text-blue-950";
const FIELD = "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600";
const SECONDARY_BUTTON =
  "inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50";

/** The action filter's groups, by what the entries are about. */
const GROUP_OF: Record<AuditTargetType, keyof typeof TEXT.groups> = {
  member: "team",
  invitation: "team",
  team: "team",
  project: "projects",
  file: "projects",
  files: "projects",
  website: "website",
  enquiry: "enquiries",
  enquiries: "enquiries",
  address: "enquiries",
  backup: "backup",
};

const KIND_GROUPS = (Object.keys(TEXT.groups) as Array<keyof typeof TEXT.groups>).map((group) => ({
  group,
  kinds: AUDIT_KIND_NAMES.filter((kind: AuditKind) => GROUP_OF[AUDIT_KINDS[kind].target] === group),
}));

/**
 * The Audit log (an owner's page of the Team tab, decision 050): the filters
 * (a GET form: person, action, UK days), Export CSV of what they select, and
 * the entries newest first, fifty at a time with a link to the older ones.
 * Read only: there is nothing here to change or delete an entry with.
 */
export function AuditLogPanel({ view }: { view: AuditView }) {
  const { filters } = view;
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading" className="text-2xl font-bold text-slate-900">
        {TEAM_TEXT_ADMIN.heading}: {TEXT.heading}
      </h2>
      <p className="mt-1 text-slate-600">{TEXT.subtitle}</p>
      <TeamPages current="audit" />

      <Form method="get" action={AUDIT_LOG_PATH} preventScrollReset className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <fieldset>
          <legend className="text-lg font-semibold text-slate-900">{TEXT.filters.legend}</legend>
          <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <label htmlFor="audit-person" className="block text-sm font-medium text-slate-800">
                {TEXT.filters.person}
              </label>
              <select id="audit-person" name="person" defaultValue={filters.person} className={FIELD}>
                <option value="">{TEXT.filters.anyone}</option>
                {view.status === "ok"
                  ? view.people.map((person) => (
                      <option key={person.id} value={person.id}>
                        {person.email}
                      </option>
                    ))
                  : null}
              </select>
            </div>
            <div>
              <label htmlFor="audit-kind" className="block text-sm font-medium text-slate-800">
                {TEXT.filters.action}
              </label>
              <select id="audit-kind" name="kind" defaultValue={filters.kind} className={FIELD}>
                <option value="">{TEXT.filters.anyAction}</option>
                {KIND_GROUPS.map(({ group, kinds }) => (
                  <optgroup key={group} label={TEXT.groups[group]}>
                    {kinds.map((kind) => (
                      <option key={kind} value={kind}>
                        {AUDIT_KINDS[kind].label}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="audit-from" className="block text-sm font-medium text-slate-800">
                {TEXT.filters.from}
              </label>
              <input id="audit-from" type="date" name="from" defaultValue={filters.from} className={FIELD} />
            </div>
            <div>
              <label htmlFor="audit-to" className="block text-sm font-medium text-slate-800">
                {TEXT.filters.to}
              </label>
              <input id="audit-to" type="date" name="to" defaultValue={filters.to} className={FIELD} />
            </div>
          </div>
        </fieldset>
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <button type="submit" className={SECONDARY_BUTTON}>
            {TEXT.filters.submit}
          </button>
          {view.status === "ok" && view.filtered ? (
            <Link to={AUDIT_LOG_PATH} className={`text-sm ${LINK}`}>
              {TEXT.filters.clear}
            </Link>
          ) : null}
          {view.status === "ok" ? (
            // A file to save, not a page: a plain link, so the router does not try to render it.
            <a href={view.exportHref} download className={`text-sm ${LINK}`}>
              {TEXT.exportCsv}
            </a>
          ) : null}
        </div>
      </Form>
      <p className="mt-3 text-sm text-slate-600">{TEXT.kept(view.retentionDays)}</p>

      {view.status === "error" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          {TEXT.loadFailure}
        </p>
      ) : view.entries.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          {view.filtered || view.newestHref ? TEXT.empty : TEXT.emptyAll}
        </p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls sideways, and keyboard users must be able to scroll it (axe: scrollable-region-focusable).
        <section aria-labelledby="audit-caption" tabIndex={0} className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full text-left text-sm">
            <caption id="audit-caption" className="sr-only">
              {TEXT.caption}
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {Object.values(TEXT.columns).map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-800">
              {view.entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="px-3 py-2 whitespace-nowrap">
                    <time dateTime={entry.at}>{entry.when}</time>
                  </td>
                  <td className="px-3 py-2 [overflow-wrap:anywhere]">{entry.who}</td>
                  <td className="px-3 py-2">{entry.what}</td>
                  <td className="px-3 py-2 [overflow-wrap:anywhere]">{entry.record}</td>
                  <td className="px-3 py-2">{entry.details}</td>
                  <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{entry.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      {view.status === "ok" && (view.olderHref || view.newestHref) ? (
        <nav aria-label={TEXT.pages} className="mt-4 flex flex-wrap gap-4 text-sm">
          {view.newestHref ? (
            <Link to={view.newestHref} className={LINK}>
              {TEXT.newest}
            </Link>
          ) : null}
          {view.olderHref ? (
            <Link to={view.olderHref} className={LINK}>
              {TEXT.older}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
