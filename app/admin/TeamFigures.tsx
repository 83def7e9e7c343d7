import type { PeriodView } from "~/enquiries/figures";

/** The panel's words (decision 060). */
export const FIGURES_TEXT = {
  heading: "How the team is doing",
  intro:
    "Real enquiries (not spam, not held) received each week, Monday to Sunday in UK time, with the status each has now. Time to first response (a status change or a reply) counts only the business hours set in the Website tab.",
  caption: "This week and last week",
  enquiries: "Enquiries",
  kind: "Kind",
  status: "Status",
  byKind: "By kind",
  byStatus: "By status",
  instructed: "Became Instructed",
  answered: "Answered",
  median: "Median time to first response (office hours)",
  csv: "Month by month (CSV)",
  failed: "The figures could not be read just now. Please try again.",
} as const;

export const FIGURES_CSV_PATH = "/admin/enquiries/figures.csv";

/**
 * How the team is doing, on the Contact Submissions tab (decision 060): this
 * week's and last week's figures in one small table (a row per figure, a
 * column per week, so it fits 360 px), every figure as text a screen reader
 * reads as it is, and the month-by-month CSV. Server-rendered: no script.
 */
export function TeamFigures({ weeks, canExport }: { weeks: PeriodView[] | undefined; canExport: boolean }) {
  const row = (label: string, cells: (week: PeriodView) => string | number, group?: string) => (
    <tr key={`${group ?? ""}${label}`} className="border-t border-slate-200">
      <th scope="row" className={`py-2 pr-3 text-left font-normal text-slate-800 ${group ? "pl-4" : "font-semibold"}`}>
        {group ? <span className="sr-only">{`${group}: `}</span> : null}
        {label}
      </th>
      {weeks?.map((week) => (
        <td key={week.heading} className="py-2 pl-3 text-right tabular-nums text-slate-900">
          {cells(week)}
        </td>
      ))}
    </tr>
  );
  // The heading of a group of rows (by kind, by status), as the first row of its own <tbody>.
  const group = (label: string) => (
    <tr className="border-t border-slate-200">
      <th scope="rowgroup" colSpan={(weeks?.length ?? 0) + 1} className="pt-3 pb-1 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {label}
      </th>
    </tr>
  );
  return (
    <section aria-labelledby="team-figures-heading" className="mt-10 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="team-figures-heading" className="text-xl font-bold text-slate-900">
        {FIGURES_TEXT.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{FIGURES_TEXT.intro}</p>
      {weeks === undefined ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          {FIGURES_TEXT.failed}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full max-w-xl text-sm">
            <caption className="sr-only">{FIGURES_TEXT.caption}</caption>
            <thead>
              <tr>
                <td />
                {weeks.map((week) => (
                  <th key={week.heading} scope="col" className="pb-2 pl-3 text-right align-bottom font-semibold text-slate-900">
                    {week.heading}
                    <span className="block text-xs font-normal text-slate-600">{week.dates}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{row(FIGURES_TEXT.enquiries, (week) => week.total)}</tbody>
            <tbody>
              {group(FIGURES_TEXT.byKind)}
              {weeks[0]!.byKind.map(({ label }, index) => row(label, (week) => week.byKind[index]!.count, FIGURES_TEXT.kind))}
            </tbody>
            <tbody>
              {group(FIGURES_TEXT.byStatus)}
              {weeks[0]!.byStatus.map(({ label }, index) => row(label, (week) => week.byStatus[index]!.count, FIGURES_TEXT.status))}
            </tbody>
            <tbody>
              {row(FIGURES_TEXT.instructed, (week) => week.instructed)}
              {row(FIGURES_TEXT.answered, (week) => week.answered)}
              {row(FIGURES_TEXT.median, (week) => week.medianResponse)}
            </tbody>
          </table>
        </div>
      )}
      {canExport ? (
        <p className="mt-4 text-sm">
          <a href={FIGURES_CSV_PATH} download className="font-semibold text-blue-800 underline hover:text-blue-900">
            {FIGURES_TEXT.csv}
          </a>
        </p>
      ) : null}
    </section>
  );
}
