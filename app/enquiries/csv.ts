import { stringify, type Options } from "csv-stringify/sync";
import type { InboxFilter, StoredSubmission } from "./inbox";
import { USER_TYPE_LABELS } from "./schema";
import { spamSignalsLabel } from "./spam";
import { KIND_LABELS, VALUATION_DETAIL_LABELS, valuationRows } from "./valuation";

/**
 * The inbox as a CSV file for spreadsheets (RFC 4180): every field quoted,
 * inner quotes doubled, records ended by CRLF, line breaks inside a message
 * kept inside its quoted field, UTF-8 with a byte-order mark so that Excel
 * reads "£" and "é" as such.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a field that
 * begins with "=", "+", "-" or "@" (and some do after a tab or a carriage
 * return) as a formula, and anybody can type one into the contact form. Such
 * a field is prefixed with "'", which spreadsheets show as text. The price: a
 * phone number "+44 20 …" or a message starting "- " shows the "'" too. Text
 * that looks harmless is never changed. The encoding is csv-stringify's
 * (quoted, escape_formulas, bom); the batches of a large file are ours.
 *
 * Dates are ISO 8601 in UTC ("2026-07-01T08:30:00.000Z"): one unambiguous
 * value that sorts as text and that other programs read back, where the
 * inbox's "1 Jul 2026, 09:30" (UK time) repeats an hour each October.
 */
export const CSV_BOM = "\uFEFF";

const ENCODING: Options = { quoted: true, quoted_empty: true, escape_formulas: true, record_delimiter: "windows" };

/** One field: neutralised, always quoted, inner quotes doubled. */
export function csvField(value: string): string {
  return csvRecord([value]).slice(0, -2);
}

/** One record, ended by CRLF. */
export function csvRecord(values: string[]): string {
  return stringify([values], ENCODING);
}

/** The columns; "Spam reason" for the Spam filter, where every row has one, "Possible spam" for the others. */
function enquiryCsvColumns(filter: InboxFilter): string[] {
  const columns = ["Submitted", "Name", "Email", "Phone", "User type", "Message", "Read"];
  return [...columns, filter === "spam" ? "Spam reason" : "Possible spam", ...VALUATION_COLUMNS];
}

/** After the columns that came before them: the kind, and a valuation request's details (empty for the contact form's). */
const VALUATION_COLUMNS = ["Kind", ...VALUATION_DETAIL_LABELS];

function enquiryCsvValues(submission: StoredSubmission, filter: InboxFilter): string[] {
  const values = [
    submission.created_at,
    submission.name,
    submission.email,
    submission.phone ?? "",
    USER_TYPE_LABELS[submission.user_type],
    submission.message,
    submission.is_read ? "Yes" : "No",
  ];
  const signals = filter === "spam" ? submission.spam_reason : submission.spam_signals;
  values.push(signals === null ? "" : spamSignalsLabel(signals));
  values.push(KIND_LABELS[submission.kind]);
  values.push(...(submission.valuation ? valuationRows(submission.valuation).map(([, value]) => value) : VALUATION_DETAIL_LABELS.map(() => "")));
  return values;
}

/** A whole file: byte-order mark, header, one record per submission. */
export function enquiriesCsv(submissions: StoredSubmission[], filter: InboxFilter): string {
  return stringify([enquiryCsvColumns(filter), ...submissions.map((submission) => enquiryCsvValues(submission, filter))], { ...ENCODING, bom: true });
}

/** Submissions fetched per query while a CSV streams out. */
export const CSV_BATCH_SIZE = 500;

/**
 * The file as a stream of UTF-8: the submissions of `ids` (in that order),
 * fetched CSV_BATCH_SIZE at a time through `load`, so a large inbox never
 * sits in memory whole. A submission deleted meanwhile is left out. If
 * `load` fails, the stream errors (the download stops short) and `onError`
 * hears why.
 */
export function enquiriesCsvStream(
  ids: string[],
  filter: InboxFilter,
  load: (ids: string[]) => Promise<StoredSubmission[]>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(stringify([enquiryCsvColumns(filter)], { ...ENCODING, bom: true })));
    },
    async pull(controller) {
      if (next >= ids.length) {
        controller.close();
        return;
      }
      const batch = ids.slice(next, next + CSV_BATCH_SIZE);
      next += batch.length;
      try {
        const byId = new Map((await load(batch)).map((submission) => [submission.id, submission]));
        const records = batch.flatMap((id) => {
          const submission = byId.get(id);
          return submission ? [enquiryCsvValues(submission, filter)] : [];
        });
        if (records.length > 0) controller.enqueue(encoder.encode(stringify(records, ENCODING)));
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
  });
}

/** The UK calendar day, YYYY-MM-DD, for the name of a downloaded file. */
export function downloadDate(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
