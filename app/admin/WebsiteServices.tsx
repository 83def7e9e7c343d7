import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { Icon } from "~/components/Icon";
import type { SiteContent } from "~/website/content";
import {
  DEFAULT_SERVICE_ICON,
  MAX_SERVICES,
  SERVICE_GROUPS,
  SERVICE_ICONS,
  groupTitleField,
  parseMove,
  serviceLabel,
  servicePrefix,
  serviceRowFields,
  servicesHeaderFields,
  type ServiceIcon,
} from "~/website/sections/services";
import { isFocusFallback } from "./NoticeRegion";
import { WebsiteField } from "./WebsiteField";

const SMALL_BUTTON =
  "inline-flex items-center gap-1 rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2";
const SELECT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 aria-[invalid=true]:border-red-700";

const isIcon = (value: string | undefined): value is ServiceIcon => value !== undefined && Object.hasOwn(SERVICE_ICONS, value);

/**
 * The Services section: its title and introduction, then each group's title
 * and services. A service is removed by ticking Remove, added by typing in
 * the row at the end of its group, and moved by its Move up / Move down
 * buttons, which save the section with the move (so they work without
 * JavaScript too).
 */
export function WebsiteServices({ content, values, errors }: { content: SiteContent; values: Record<string, string>; errors: Record<string, string> }) {
  const form = useRef<HTMLDivElement>(null);
  const [params] = useSearchParams();
  const moved = params.get("moved");

  // A moved service's row is drawn anew: focus goes back to the button that was used, in its new place.
  useEffect(() => {
    const move = parseMove(moved ?? "");
    if (!move || !isFocusFallback(document.activeElement)) return;
    const button = (direction: "up" | "down") =>
      form.current?.querySelector<HTMLButtonElement>(`button[name="move"][value="${move.group}.${move.index}.${direction}"]`);
    (move.by < 0 ? (button("up") ?? button("down")) : (button("down") ?? button("up")))?.focus();
  }, [moved]);

  return (
    <div ref={form} className="contents">
      {/* Enter in a field saves: the form's first submit button is the one implicit submission uses, so it must not be a Move button. */}
      <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only">
        Save draft
      </button>
      {servicesHeaderFields().map((spec) => (
        <WebsiteField key={spec.name} spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
      ))}
      {Array.from({ length: SERVICE_GROUPS }, (_, group) => {
        const count = content.services.groups[group]?.services.length ?? 0;
        const rows = count < MAX_SERVICES ? count + 1 : count;
        const titleField = groupTitleField(group);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the groups are fixed slots, named services.<group>.
          <fieldset key={group} className="space-y-4 sm:col-span-2">
            <legend className="text-lg font-semibold text-slate-900">Group {group + 1}</legend>
            <WebsiteField spec={titleField} value={values[titleField.name] ?? ""} error={errors[titleField.name]} />
            {Array.from({ length: rows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position (its fields are named by index); the form remounts on each saved revision.
              <ServiceRow key={index} group={group} index={index} count={count} content={content} values={values} errors={errors} />
            ))}
            {count >= MAX_SERVICES ? (
              <p className="text-sm text-slate-700">This group has {MAX_SERVICES} services, the most it can have. Remove one to add another.</p>
            ) : null}
          </fieldset>
        );
      })}
    </div>
  );
}

function ServiceRow({
  group,
  index,
  count,
  content,
  values,
  errors,
}: {
  group: number;
  index: number;
  count: number;
  content: SiteContent;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const adding = index === count;
  const prefix = servicePrefix(group, index);
  const label = serviceLabel(group, index, adding);
  const iconId = `field-${prefix.replace(/\./g, "-")}-icon`;
  const iconError = errors[`${prefix}.icon`];
  const chosen = values[`${prefix}.icon`];
  const shown = isIcon(chosen) ? chosen : DEFAULT_SERVICE_ICON;
  return (
    <div className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2">
      <p className="text-sm font-semibold text-slate-800 sm:col-span-2">{adding ? `Add a service to group ${group + 1}` : label}</p>
      {serviceRowFields(content.services, group, index).map((spec) => (
        <WebsiteField key={spec.name} spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
      ))}
      <div>
        <label htmlFor={iconId} className="block text-sm font-medium text-slate-800">
          {label}: icon
        </label>
        <div className="flex items-center gap-3">
          <span aria-hidden="true" className="mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-blue-100 text-blue-800">
            <Icon name={shown} />
          </span>
          <select
            id={iconId}
            name={`${prefix}.icon`}
            defaultValue={chosen ?? DEFAULT_SERVICE_ICON}
            aria-invalid={iconError ? true : undefined}
            aria-describedby={iconError ? `${iconId}-error` : undefined}
            className={SELECT}
          >
            {/* A value the list does not have (from a bad import) stays visible, to be corrected. */}
            {chosen !== undefined && chosen !== "" && !isIcon(chosen) ? <option value={chosen}>{chosen}</option> : null}
            {Object.entries(SERVICE_ICONS).map(([name, words]) => (
              <option key={name} value={name}>
                {words}
              </option>
            ))}
          </select>
        </div>
        {iconError ? (
          <p id={`${iconId}-error`} className="mt-1 text-sm text-red-800">
            {iconError}
          </p>
        ) : null}
      </div>
      {adding ? null : (
        <div className="flex flex-wrap items-center gap-3 self-end">
          <label className="inline-flex items-center gap-2 text-slate-800">
            <input type="checkbox" name={`${prefix}.remove`} defaultChecked={values[`${prefix}.remove`] === "on"} className="size-4 accent-red-700" />
            Remove <span className="sr-only">{label}</span>
          </label>
          {index > 0 ? <MoveButton group={group} index={index} direction="up" label={label} /> : null}
          {index < count - 1 ? <MoveButton group={group} index={index} direction="down" label={label} /> : null}
        </div>
      )}
    </div>
  );
}

function MoveButton({ group, index, direction, label }: { group: number; index: number; direction: "up" | "down"; label: string }) {
  return (
    <button type="submit" name="move" value={`${group}.${index}.${direction}`} className={SMALL_BUTTON}>
      <Icon name={direction === "up" ? "chevronUp" : "chevronDown"} className="size-4" />
      Move {direction} <span className="sr-only">({label})</span>
    </button>
  );
}
