import type { FieldSpec } from "~/website/content";
import { FieldNotes } from "./FieldNotes";

const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 aria-[invalid=true]:border-red-700";

/** One typed field of the Website tab: its label, limit, hint and error, tied together for screen readers. */
export function WebsiteField({ spec, value, error }: { spec: FieldSpec; value: string; error: string | undefined }) {
  const id = `field-${spec.name.replace(/\./g, "-")}`;
  const described = [spec.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: spec.name,
    defaultValue: value,
    required: spec.required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    className: INPUT,
  };
  return (
    <div className={spec.multiline ? "sm:col-span-2" : undefined}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {spec.label}{" "}
        {spec.required ? (
          <span aria-hidden="true" className="text-red-700">
            *
          </span>
        ) : null}
      </label>
      {spec.multiline ? (
        <textarea {...common} rows={spec.name.startsWith("policies.") ? 16 : spec.name.endsWith(".features") ? 8 : 4} maxLength={spec.max} />
      ) : (
        <input {...common} type={spec.type ?? "text"} maxLength={spec.max} autoComplete="off" />
      )}
      <FieldNotes id={id} hint={spec.hint} error={error} />
    </div>
  );
}
