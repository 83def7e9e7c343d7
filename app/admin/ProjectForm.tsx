import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Spinner } from "~/components/Spinner";
import {
  MAX_DISPLAY_ORDER,
  PROJECT_FIELD_LABELS,
  PROJECT_LIMITS,
  emptyProjectForm,
  type ProjectFormErrors,
  type ProjectFormValues,
  type ProjectTextField,
} from "~/projects/project-form";
import { defaultAlt, type RenovationProject } from "~/projects/types";
import { ImageUploadField } from "./ImageUploadField";
import { PROJECTS_TEXT } from "./texts";
import type { ProjectFormState } from "./types";
import { tabPath } from "./tabs";
import { FieldNotes } from "./FieldNotes";

/** The Renovation Projects tab: its forms post here, and its links lead here. */
const PROJECTS_PATH = tabPath("projects");

const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 aria-[invalid=true]:border-red-700";

function valuesOf(project: RenovationProject): ProjectFormValues {
  return {
    title: project.title,
    category: project.category,
    description: project.description,
    duration: project.duration,
    budget: project.budget,
    display_order: String(project.display_order),
    before_image_url: project.before_image_url,
    after_image_url: project.after_image_url,
    // Shown empty when it is the default, so a new title changes it.
    before_image_alt: project.before_image_alt === defaultAlt("before", project.title) ? "" : project.before_image_alt,
    after_image_alt: project.after_image_alt === defaultAlt("after", project.title) ? "" : project.after_image_alt,
  };
}

/**
 * Add New Project / Edit Project (SPEC §2, §5). A plain multipart form: it
 * works without JavaScript (the images travel with it); with JavaScript the
 * images upload as soon as they are chosen, with progress, and Save waits
 * for them. Refused input comes back with the admin's values and a message
 * by each field.
 */
export function ProjectForm({
  state,
  refused,
}: {
  state: ProjectFormState;
  /** The server's answer to the last save, when it refused it. */
  refused?: { values: ProjectFormValues; errors: ProjectFormErrors };
}) {
  const editing = state.mode === "edit";
  const initial = refused?.values ?? (editing ? valuesOf(state.project) : emptyProjectForm(state.displayOrder));
  const errors = refused?.errors ?? {};
  const [title, setTitle] = useState(initial.title);
  const [uploading, setUploading] = useState<Record<string, boolean>>({});
  const anyUploading = Object.values(uploading).some(Boolean);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === (editing ? "update-project" : "create-project");
  const headingId = useId();
  const firstField = useRef<HTMLInputElement>(null);
  const action = editing ? `${PROJECTS_PATH}?edit=${state.project.id}` : `${PROJECTS_PATH}?form=new`;

  // Opening the form (or coming back to it with problems) puts the cursor in it.
  useEffect(() => {
    const firstInvalid = document.querySelector<HTMLElement>("#project-form [aria-invalid=true]");
    (firstInvalid ?? firstField.current)?.focus();
  }, [refused]);

  const textField = (field: ProjectTextField, extra: { multiline?: boolean; hint?: string; placeholder?: string } = {}) => {
    const id = `project-${field}`;
    const error = errors[field];
    const described = [extra.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
    const common = {
      id,
      name: field,
      required: true,
      maxLength: PROJECT_LIMITS[field],
      "aria-invalid": error ? true : undefined,
      "aria-describedby": described,
      className: INPUT,
      placeholder: extra.placeholder,
    };
    return (
      <div className={extra.multiline ? "sm:col-span-2" : undefined}>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {PROJECT_FIELD_LABELS[field]}{" "}
          <span aria-hidden="true" className="text-red-700">
            *
          </span>
        </label>
        {extra.multiline ? (
          <textarea {...common} rows={4} defaultValue={initial[field]} />
        ) : field === "title" ? (
          <input {...common} ref={firstField} type="text" value={title} onChange={(event) => setTitle(event.target.value)} />
        ) : (
          <input {...common} type="text" defaultValue={initial[field]} />
        )}
        <FieldNotes id={id} hint={extra.hint} error={error} />
      </div>
    );
  };

  return (
    <section aria-labelledby={headingId} className="mt-6 rounded-xl border border-blue-200 bg-white p-5 shadow-sm sm:p-6">
      <h3 id={headingId} className="text-xl font-semibold text-slate-900">
        {editing ? PROJECTS_TEXT.editTitle : PROJECTS_TEXT.addTitle}
      </h3>
      <Form
        id="project-form"
        method="post"
        action={action}
        encType="multipart/form-data"
        preventScrollReset
        aria-labelledby={headingId}
        className="mt-5 grid gap-5 sm:grid-cols-2"
      >
        <input type="hidden" name="intent" value={editing ? "update-project" : "create-project"} />
        {editing ? <input type="hidden" name="id" value={state.project.id} /> : null}
        {textField("title", { placeholder: "e.g. Victorian Kitchen Transformation" })}
        {textField("category", { placeholder: "e.g. Kitchen Renovation" })}
        {textField("description", { multiline: true })}
        {textField("duration", { placeholder: "e.g. 3 weeks" })}
        {textField("budget", { placeholder: "e.g. £15,000" })}
        <div>
          <label htmlFor="project-display_order" className="block text-sm font-medium text-slate-800">
            {PROJECTS_TEXT.displayOrder}
          </label>
          <input
            id="project-display_order"
            name="display_order"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_DISPLAY_ORDER}
            step={1}
            defaultValue={initial.display_order}
            aria-invalid={errors.display_order ? true : undefined}
            aria-describedby={`project-display_order-hint${errors.display_order ? " project-display_order-error" : ""}`}
            className={INPUT}
          />
          <p id="project-display_order-hint" className="mt-1 text-sm text-slate-600">
            {PROJECTS_TEXT.displayOrderHint}
          </p>
          {errors.display_order ? (
            <p id="project-display_order-error" className="mt-1 text-sm text-red-800">
              {errors.display_order}
            </p>
          ) : null}
        </div>

        <div className="grid gap-5 sm:col-span-2 md:grid-cols-2">
          {(["before", "after"] as const).map((side) => (
            <ImageUploadField
              key={side}
              side={side}
              label={side === "before" ? PROJECTS_TEXT.beforeImage : PROJECTS_TEXT.afterImage}
              initialUrl={initial[`${side}_image_url`] || undefined}
              initialAlt={initial[`${side}_image_alt`]}
              defaultAlt={defaultAlt(side, title.trim() || "the project's title")}
              error={errors[`${side}_image`] ?? errors[`${side}_image_alt`]}
              onUploadingChange={(busy) => setUploading((current) => ({ ...current, [side]: busy }))}
            />
          ))}
        </div>

        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <button
            type="submit"
            disabled={saving || anyUploading}
            className="inline-flex items-center gap-2 rounded-lg bg-blue-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-70"
          >
            {saving ? <Spinner className="size-4" /> : null}
            {saving ? PROJECTS_TEXT.saving : editing ? PROJECTS_TEXT.update : PROJECTS_TEXT.create}
          </button>
          <Link
            to={PROJECTS_PATH}
            preventScrollReset
            className="rounded-lg bg-white px-5 py-2.5 font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"
          >
            {PROJECTS_TEXT.cancel}
          </Link>
          {anyUploading ? (
            <p role="status" className="text-sm text-slate-700">
              {PROJECTS_TEXT.waitForUploads}
            </p>
          ) : null}
        </div>
      </Form>
    </section>
  );
}
