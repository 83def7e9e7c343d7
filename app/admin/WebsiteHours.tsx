import { WEEK } from "~/website/sections/hours";
import { sectionFields, type SiteContent } from "~/website/content";
import { WebsiteField } from "./WebsiteField";

const TIME_INPUT =
  "mt-1 block w-36 rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 aria-[invalid=true]:border-red-700";

/**
 * The Business hours section: each day open or closed, with its opening and
 * closing times (24-hour, London), then the phone line's hours and how soon
 * e-mails are answered, as the Contact section words them.
 */
export function WebsiteHours({ content, values, errors }: { content: SiteContent; values: Record<string, string>; errors: Record<string, string> }) {
  return (
    <>
      <fieldset className="sm:col-span-2">
        <legend className="text-lg font-semibold text-slate-900">Opening hours</legend>
        <p className="mt-1 text-sm text-slate-600">Untick Open for a day you are closed. Days in a row with the same hours are shown together on the site.</p>
        <div className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {WEEK.map((day, index) => (
            <Day key={day} day={day} index={index} values={values} errors={errors} />
          ))}
        </div>
      </fieldset>
      {sectionFields("hours", content)
        .filter((spec) => spec.name.startsWith("contact."))
        .map((spec) => (
          <WebsiteField key={spec.name} spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
        ))}
    </>
  );
}

function Day({ day, index, values, errors }: { day: string; index: number; values: Record<string, string>; errors: Record<string, string> }) {
  const prefix = `hours.${index}`;
  const id = (part: string) => `field-hours-${index}-${part}`;
  const problems = (["opens", "closes"] as const).filter((part) => errors[`${prefix}.${part}`]);
  return (
    <fieldset className="grid gap-3 p-3 sm:grid-cols-[8rem_6rem_auto_auto] sm:items-end sm:justify-start sm:gap-x-6">
      <legend className="float-left pt-2 font-semibold text-slate-900 sm:pb-2">{day}</legend>
      <label className="inline-flex items-center gap-2 text-slate-800 sm:pb-2">
        <input type="checkbox" name={`${prefix}.open`} defaultChecked={values[`${prefix}.open`] === "on"} className="size-4 accent-blue-700" />
        Open
      </label>
      {(["opens", "closes"] as const).map((part) => {
        const error = errors[`${prefix}.${part}`];
        return (
          <div key={part}>
            <label htmlFor={id(part)} className="block text-sm font-medium text-slate-800">
              {part === "opens" ? "Opens" : "Closes"}
            </label>
            <input
              id={id(part)}
              name={`${prefix}.${part}`}
              type="time"
              defaultValue={values[`${prefix}.${part}`] ?? ""}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? id(`${part}-error`) : undefined}
              className={TIME_INPUT}
            />
          </div>
        );
      })}
      {problems.map((part) => (
        <p key={part} id={id(`${part}-error`)} className="text-sm text-red-800 sm:col-span-4">
          {errors[`${prefix}.${part}`]}
        </p>
      ))}
    </fieldset>
  );
}
