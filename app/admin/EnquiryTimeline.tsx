import { TIMELINE_TEXT } from "~/enquiries/timeline";
import type { InboxSubmission } from "./types";

/**
 * What happened to the enquiry, oldest first (decision 062): folded away
 * under "Timeline (n)" so the card stays short; a native disclosure, so it
 * opens from the keyboard and without JavaScript.
 */
export function CardTimeline({ submission }: { submission: InboxSubmission }) {
  return (
    <details className="group mt-4 text-sm">
      <summary className="cursor-pointer font-semibold text-slate-900 underline-offset-2 hover:underline">
        {TIMELINE_TEXT.title} ({submission.timeline.length})
      </summary>
      <ol className="mt-2 space-y-1 border-l-2 border-slate-200 pl-4">
        {submission.timeline.map((entry, index) => (
          // The entries of one enquiry never change order: their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index} className="[overflow-wrap:anywhere] text-slate-800">
            <time dateTime={entry.at} className="font-medium text-slate-700">
              {entry.when}
            </time>{" "}
            {entry.text}
          </li>
        ))}
      </ol>
    </details>
  );
}
