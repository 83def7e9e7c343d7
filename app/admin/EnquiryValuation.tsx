import { KIND_LABELS, valuationRows, type ValuationDetails } from "~/enquiries/valuation";

/** The badge that says an enquiry is a valuation request (decision 057); the contact form's have none. */
export function ValuationBadge() {
  return (
    <span className="rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-400 ring-inset">
      {KIND_LABELS.valuation}
    </span>
  );
}

/** A valuation request's property details on its card, labelled as in the e-mail and the CSV. */
export function ValuationDetailsList({ details }: { details: ValuationDetails }) {
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-lg bg-slate-50 p-4 text-sm ring-1 ring-slate-200 ring-inset sm:grid-cols-2">
      {valuationRows(details).map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="font-semibold text-slate-700">{label}</dt>
          <dd className="text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
