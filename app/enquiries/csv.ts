import type { InboxFilter, StoredSubmission } from "./inbox";
import { USER_TYPE_LABELS } from "./schema";
import { spamSignalsLabel } from "./spam";
import { KIND_LABELS, parseValuationDetails, VALUATION_DETAIL_LABELS, valuationRows } from "./valuation";

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
 * that looks harmless is never changed.
 *
 * The encoding is csv-stringify's with `quoted`, `quoted_empty`,
 * `escape_formulas` and CRLF, written out here (decision 064): its general
 * path (options and casts weighed for every field) was a fifth of the time of
 * an export of 100,000 enquiries. csv.test.ts checks, value by value, that
 * the two write the same bytes.
 *
 * Dates are ISO 8601 in UTC ("2026-07-01T08:30:00.000Z"): one unambiguous
 * value that sorts as text and that other programs read back, where the
 * inbox's "1 Jul 2026, 09:30" (UK time) repeats an hour each October.
 */
export const CSV_BOM = "\uFEFF";

/** What starts a formula (csv-stringify's escape_formulas list: OWASP's, and the full-width forms some spreadsheets fold to them). */
export const FORMULA_STARTS: readonly string[] = ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"];
const FORMULA_START_SET = new Set(FORMULA_STARTS);

/** One field: neutralised, always quoted, inner quotes doubled. */
export function csvField(value: string): string {
  const text = FORMULA_START_SET.has(value.charAt(0)) ? `'${value}` : value;
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

/** One record, ended by CRLF. */
export function csvRecord(values: readonly string[]): string {
  let record = "";
  for (let index = 0; index < values.length; index++) record += index === 0 ? csvField(values[index]!) : `,${csvField(values[index]!)}`;
  return `${record}\r\n`;
}

/** The columns; "Spam reason" for the Spam filter, where every row has one, "Possible spam" for the others. */
function enquiryCsvColumns(filter: InboxFilter): string[] {
  const columns = ["Submitted", "Name", "Email", "Phone", "User type", "Message", "Read"];
  return [...columns, filter === "spam" ? "Spam reason" : "Possible spam", ...VALUATION_COLUMNS];
}

/** After the columns that came before them: the kind, and a valuation request's details (empty for the contact form's). */
const VALUATION_COLUMNS = ["Kind", ...VALUATION_DETAIL_LABELS];

/** What a row of the file is made of: a stored submission's fields, or just these (an export reads no more). */
export type CsvSubmission = Pick<
  StoredSubmission,
  "created_at" | "name" | "email" | "phone" | "user_type" | "message" | "is_read" | "spam_reason" | "spam_signals" | "kind" | "valuation"
>;

/** The fields every file repeats, encoded once: the labels of the user types, Read, the kinds, a contact form's empty details. */
export const USER_TYPE_FIELDS = Object.fromEntries(Object.entries(USER_TYPE_LABELS).map(([type, label]) => [type, csvField(label)])) as Record<
  keyof typeof USER_TYPE_LABELS,
  string
>;
export const READ_FIELDS = { yes: csvField("Yes"), no: csvField("No") };
const CONTACT_FORM_TAIL = [KIND_LABELS.contact, ...VALUATION_DETAIL_LABELS.map(() => "")].map(csvField).join(",");
const VALUATION_KIND_FIELD = csvField(KIND_LABELS.valuation);

/** A file's few distinct spam signals, each labelled and encoded once. */
function signalFields(): (stored: string | null) => string {
  const fields = new Map<string, string>();
  return (stored) => {
    if (stored === null) return '""';
    let field = fields.get(stored);
    if (field === undefined) {
      field = csvField(spamSignalsLabel(stored));
      fields.set(stored, field);
    }
    return field;
  };
}

/** The Kind column and a valuation request's details: the contact form's (empty) when there are none. */
function detailsFields(valuation: CsvSubmission["valuation"]): string {
  return valuation
    ? `${VALUATION_KIND_FIELD},${valuationRows(valuation)
        .map(([, value]) => csvField(value))
        .join(",")}`
    : CONTACT_FORM_TAIL;
}

/** One submission's record (what csvRecord makes of its values, with the repeated fields encoded once). */
function enquiryCsvLine(submission: CsvSubmission, filter: InboxFilter, signals: (stored: string | null) => string): string {
  return (
    `${csvField(submission.created_at)},${csvField(submission.name)},${csvField(submission.email)},${csvField(submission.phone ?? "")},` +
    `${USER_TYPE_FIELDS[submission.user_type]},${csvField(submission.message)},${submission.is_read ? READ_FIELDS.yes : READ_FIELDS.no},` +
    `${signals(filter === "spam" ? submission.spam_reason : submission.spam_signals)},${detailsFields(submission.valuation)}\r\n`
  );
}

/**
 * A row whose first seven fields the database wrote already, quoted and
 * neutralised as csvField does (PostgreSQL, decision 077): that text
 * ("Submitted" to "Read", no comma after), the stored spam signals (or, for
 * the Spam filter, the reason), and the stored details of a valuation request
 * (null for the contact form's). The rest of the record is written here.
 */
export type CsvWrittenRow = [head: string, signals: string | null, details: string | null];

/** What a streamed file's source reads a chunk at a time: submissions to encode, or rows the database mostly wrote. */
export type CsvChunk = { submissions: CsvSubmission[] } | { written: CsvWrittenRow[] };

/** The rest of a written row's record, from the comma after Read to its CRLF; the contact form's encoded once per signal. */
function recordTails(signals: (stored: string | null) => string): (stored: string | null, details: string | null) => string {
  const contactTails = new Map<string | null, string>();
  return (stored, details) => {
    if (details !== null) return `,${signals(stored)},${detailsFields(parseValuationDetails(details) ?? null)}\r\n`;
    let tail = contactTails.get(stored);
    if (tail === undefined) {
      tail = `,${signals(stored)},${CONTACT_FORM_TAIL}\r\n`;
      contactTails.set(stored, tail);
    }
    return tail;
  };
}

/** A whole file: byte-order mark, header, one record per submission. */
export function enquiriesCsv(submissions: CsvSubmission[], filter: InboxFilter): string {
  const signals = signalFields();
  return CSV_BOM + csvRecord(enquiryCsvColumns(filter)) + submissions.map((submission) => enquiryCsvLine(submission, filter, signals)).join("");
}

/** Submissions read per chunk while a CSV streams out: one piece of the file each, about 0.6 MB. */
export const CSV_BATCH_SIZE = 2000;

const MIN_CHUNK_BYTES = 64 * 1024;

/** Room at `used` in `buffer` for text of `units` UTF-16 code units (each at most three bytes of UTF-8): the same buffer, or a larger copy. */
function roomFor(buffer: Buffer, used: number, units: number): Buffer {
  if (buffer.length - used >= units * 3) return buffer;
  const larger = Buffer.allocUnsafe(Math.max(buffer.length * 2, used + units * 3));
  buffer.copy(larger, 0, 0, used);
  return larger;
}

/**
 * A chunk's records as UTF-8, each written straight into one buffer (grown
 * when a record might not fit): three to four times faster than joining them
 * into one string for Buffer.from, which must flatten it first.
 */
function encodeLines(
  chunk: CsvChunk,
  filter: InboxFilter,
  signals: (stored: string | null) => string,
  tails: (stored: string | null, details: string | null) => string,
  sizeHint: number,
): Buffer {
  let buffer: Buffer = Buffer.allocUnsafe(sizeHint);
  let used = 0;
  if ("written" in chunk) {
    for (const [head, stored, details] of chunk.written) {
      const tail = tails(stored, details);
      buffer = roomFor(buffer, used, head.length + tail.length);
      used += buffer.write(head, used);
      used += buffer.write(tail, used);
    }
  } else {
    for (const submission of chunk.submissions) {
      const line = enquiryCsvLine(submission, filter, signals);
      buffer = roomFor(buffer, used, line.length);
      used += buffer.write(line, used);
    }
  }
  return buffer.subarray(0, used);
}

/** Where a streamed file's rows come from: chunks read one after the other, and the end of the read. */
export type CsvSource = { chunks: AsyncIterable<CsvChunk>; close(): Promise<void> };

/**
 * The file as a stream of UTF-8, a chunk of submissions at a time as the
 * reader takes them (so a large inbox never sits in memory whole, and a slow
 * download reads no faster than it is sent). The source is closed once: at
 * the end, on an error (the stream errors, the download stops short, and
 * `onError` hears why) or when the download is cancelled.
 */
export function enquiriesCsvStream(source: CsvSource, filter: InboxFilter, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const chunks = source.chunks[Symbol.asyncIterator]();
  const signals = signalFields();
  const tails = recordTails(signals);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= source.close());
  // The client went away: a chunk still being read is dropped, and the read it fails on once closed is no error.
  let cancelled = false;
  let sizeHint = MIN_CHUNK_BYTES;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(Buffer.from(CSV_BOM + csvRecord(enquiryCsvColumns(filter))));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (cancelled) return;
        if (next.done) {
          controller.close();
          await close().catch(onError);
          return;
        }
        const bytes = encodeLines(next.value, filter, signals, tails, sizeHint);
        sizeHint = Math.max(MIN_CHUNK_BYTES, bytes.length + (bytes.length >> 3));
        if (bytes.length > 0) controller.enqueue(bytes);
      } catch (error) {
        if (cancelled) return;
        onError(error);
        controller.error(error);
        await close().catch(onError);
      }
    },
    async cancel() {
      cancelled = true;
      await close();
    },
  });
}

/** The UK calendar day, YYYY-MM-DD, for the name of a downloaded file. */
export function downloadDate(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
