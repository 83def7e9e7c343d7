import { Icon } from "~/components/Icon";
import { DATABASE_TEXT } from "./texts";
import type { DatabaseNotice } from "./types";

/**
 * A full disk or a database that went away (decision 038): red while it lasts,
 * amber for a day after, on every tab. While the disk is full every enquiry
 * is refused, so it must be impossible to miss.
 */
export function DatabaseBanner({ notice }: { notice: DatabaseNotice }) {
  const { kind, since, until, failures, detail } = notice;
  const lasting = until === undefined;
  const [title, text] =
    kind === "disk-full"
      ? lasting
        ? [DATABASE_TEXT.diskFullTitle, DATABASE_TEXT.diskFull(since, failures, detail)]
        : [DATABASE_TEXT.diskWasFullTitle, DATABASE_TEXT.diskWasFull(since, until, failures, detail)]
      : lasting
        ? [DATABASE_TEXT.unreachableTitle, DATABASE_TEXT.unreachable(since, detail)]
        : [DATABASE_TEXT.wasUnreachableTitle, DATABASE_TEXT.wasUnreachable(since, until, failures, detail)];
  return (
    <div
      role={lasting ? "alert" : undefined}
      className={`mb-6 flex gap-3 rounded-xl border-2 px-4 py-4 sm:px-5 ${lasting ? "border-red-700 bg-red-50 text-red-950" : "border-amber-600 bg-amber-50 text-amber-950"}`}
    >
      <Icon name="exclamation" className={`mt-0.5 size-6 shrink-0 ${lasting ? "text-red-700" : "text-amber-700"}`} />
      <p className="min-w-0 [overflow-wrap:anywhere]">
        <strong className="font-semibold">{title}:</strong> {text}
      </p>
    </div>
  );
}
