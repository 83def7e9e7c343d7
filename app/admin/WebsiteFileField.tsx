import { CERTIFICATE_ACCEPT, IMAGE_ACCEPT } from "~/images/image-files";
import type { FieldSpec } from "~/website/content";
import { FieldNotes } from "./FieldNotes";

const FILE_INPUT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm file:mr-3 file:rounded-md file:border-0 file:bg-blue-50 file:px-3 file:py-1.5 file:font-semibold file:text-blue-800 focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 aria-[invalid=true]:border-red-700";

/**
 * An upload of the Website tab (logo, hero image, certificate). The section's
 * multipart form carries `<name>` (the current file's URL), `<name>.file` (a
 * new file, checked and stored by the server when the section is saved) and
 * `<name>.remove`. The same with and without JavaScript: the file goes with
 * the save, so a refused file changes nothing.
 */
export function WebsiteFileField({ spec, value, error }: { spec: FieldSpec; value: string; error: string | undefined }) {
  const id = `field-${spec.name.replace(/\./g, "-")}`;
  const what = spec.label.toLowerCase();
  const isDocument = value.endsWith(".pdf");
  const described = [spec.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 p-4 sm:col-span-2">
      <legend className="px-1 text-sm font-semibold text-slate-900">{spec.label}</legend>
      <input type="hidden" name={spec.name} value={value} />
      {value ? (
        isDocument ? (
          <p className="text-slate-800">
            <a href={value} target="_blank" rel="noopener" className="font-semibold text-blue-800 underline underline-offset-2">
              Open the current {what} (PDF)
            </a>
          </p>
        ) : (
          <img src={value} alt={`The current ${what}`} className="h-24 w-auto max-w-full rounded-lg bg-slate-50 object-contain ring-1 ring-slate-200" />
        )
      ) : (
        <p className="text-sm text-slate-700">
          {spec.name === "company.logo"
            ? "None uploaded: the standard logo is shown."
            : spec.name === "hero.image"
              ? "None uploaded: the illustration of a town house is shown."
              : "None uploaded."}
        </p>
      )}
      <label htmlFor={id} className="mt-3 block text-sm font-medium text-slate-800">
        {value ? `Replace the ${what}` : `Upload the ${what}`}
      </label>
      <input
        id={id}
        name={`${spec.name}.file`}
        type="file"
        accept={spec.type === "document" ? CERTIFICATE_ACCEPT : IMAGE_ACCEPT}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={FILE_INPUT}
      />
      <FieldNotes id={id} hint={spec.hint} error={error} />
      {value ? (
        <label className="mt-3 inline-flex items-center gap-2 text-slate-800">
          <input type="checkbox" name={`${spec.name}.remove`} value="yes" className="size-4 accent-blue-700" />
          Remove the {what}
        </label>
      ) : null}
    </fieldset>
  );
}
