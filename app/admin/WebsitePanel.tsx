import { Fragment } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Icon } from "~/components/Icon";
import { FILE_FIELDS, SECTION_LABELS, SITE_SECTIONS, sectionFields, sectionValues, type SiteSection } from "~/website/content";
import { NoticeRegion } from "./NoticeRegion";
import { WebsiteFees } from "./WebsiteFees";
import { WebsiteField } from "./WebsiteField";
import { WebsiteFileField } from "./WebsiteFileField";
import { WebsiteHours } from "./WebsiteHours";
import { WebsiteServices } from "./WebsiteServices";
import { TabLinks } from "./Tabs";
import { WEBSITE_TEXT_ADMIN as TEXT } from "./texts";
import type { WebsiteActionData, WebsiteView } from "./website-types";

const BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold shadow-sm ring-1 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";
const PRIMARY = `${BUTTON} bg-blue-700 text-white ring-blue-700 hover:bg-blue-800`;
const SECONDARY = `${BUTTON} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`;

const SECTION_TAB = (selected: boolean) =>
  `rounded-lg px-3 py-2 text-sm font-semibold ${selected ? "bg-blue-700 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"}`;

/**
 * The Website tab (issue 15): one section of the draft at a time, with its
 * typed fields; Preview, Publish and Discard for the whole draft; the history
 * of published versions with Preview and Restore. Every form works without
 * JavaScript.
 */
export function WebsitePanel({ view, actionData }: { view: WebsiteView; actionData: WebsiteActionData | undefined }) {
  if (view.status === "error") {
    return (
      <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-red-900 ring-1 ring-red-200">
        {TEXT.loadError}
      </p>
    );
  }
  const notice = actionData?.notice ?? view.notice;
  return (
    <div className="space-y-8">
      <header>
        <h2 className="text-2xl font-bold text-slate-900">{TEXT.heading}</h2>
        <p className="mt-1 max-w-3xl text-slate-700">{TEXT.intro}</p>
      </header>
      <NoticeRegion notice={notice && { kind: notice.kind === "error" ? "error" : "success", text: notice.text }} watch={view.revision} />
      <DraftBar view={view} />
      <SchedulePanel view={view} />
      <SectionEditor view={view} actionData={actionData} />
      <History view={view} />
    </div>
  );
}

function DraftBar({ view }: { view: Extract<WebsiteView, { status: "ok" }> }) {
  const live = view.versions.find((version) => version.live);
  return (
    <section
      aria-labelledby="website-draft"
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        <h3 id="website-draft" className="font-semibold text-slate-900">
          {live ? `${TEXT.live}: ${TEXT.version(live.number)}` : TEXT.neverPublished}
        </h3>
        <p className={`mt-1 text-sm ${view.unpublished ? "font-medium text-amber-900" : "text-slate-700"}`}>
          {view.unpublished && view.lastSaved ? TEXT.unpublished(view.lastSaved.when, view.lastSaved.by) : TEXT.upToDate}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <a href="/admin/website/preview" target="_blank" rel="noopener" className={SECONDARY}>
          <Icon name="eye" className="size-4" />
          {TEXT.previewDraft} <span className="sr-only">{TEXT.previewHint}</span>
        </a>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="publish" />
          <input type="hidden" name="revision" value={view.revision} />
          <button type="submit" disabled={!view.unpublished} className={PRIMARY}>
            {TEXT.publish}
          </button>
        </Form>
        <Form
          method="post"
          preventScrollReset
          onSubmit={(event) => {
            if (!window.confirm(TEXT.discardConfirm)) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="revision" value={view.revision} />
          <button type="submit" disabled={!view.unpublished} className={SECONDARY}>
            {TEXT.discard}
          </button>
        </Form>
      </div>
    </section>
  );
}

/** Publish later: a date and time in London; one scheduled publish at a time. */
function SchedulePanel({ view }: { view: Extract<WebsiteView, { status: "ok" }> }) {
  const { schedule } = view;
  return (
    <section aria-labelledby="website-schedule" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id="website-schedule" className="font-semibold text-slate-900">
        {TEXT.scheduleLegend}
      </h3>
      {schedule ? (
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-slate-800">
            {TEXT.scheduled(schedule.label, schedule.by)}
            {schedule.ofCurrentDraft ? null : <span className="mt-1 block text-sm font-medium text-amber-900">{TEXT.scheduledChanged}</span>}
          </p>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="cancel-schedule" />
            <input type="hidden" name="revision" value={view.revision} />
            <button type="submit" className={SECONDARY}>
              {TEXT.cancelSchedule}
            </button>
          </Form>
        </div>
      ) : null}
      <Form method="post" preventScrollReset className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="schedule" />
        <input type="hidden" name="revision" value={view.revision} />
        <div>
          <label htmlFor="website-publish-at" className="block text-sm font-medium text-slate-800">
            {TEXT.scheduleLabel}
          </label>
          <input
            id="website-publish-at"
            name="publishAt"
            type="datetime-local"
            required
            className="mt-1 block rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700"
          />
        </div>
        <button type="submit" disabled={!view.unpublished} className={SECONDARY}>
          {TEXT.schedule}
        </button>
      </Form>
    </section>
  );
}

function SectionEditor({ view, actionData }: { view: Extract<WebsiteView, { status: "ok" }>; actionData: WebsiteActionData | undefined }) {
  const navigation = useNavigation();
  const section: SiteSection = view.section;
  // A refused save of this section comes back with what was typed and what is wrong.
  const refused = actionData?.section === section ? actionData : undefined;
  const values = refused?.values ?? sectionValues(section, view.content);
  const errors = refused?.errors ?? {};
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-section";
  const fields = sectionFields(section, view.content);

  return (
    <section aria-labelledby="website-section" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <TabLinks
        label={TEXT.sectionsLabel}
        panelId="website-section-panel"
        className="flex flex-wrap gap-2"
        tabClassName={SECTION_TAB}
        items={SITE_SECTIONS.map((name) => ({
          id: `section-${name}`,
          label: SECTION_LABELS[name],
          to: `/admin/website?section=${name}`,
          selected: name === section,
        }))}
      />
      <div id="website-section-panel" role="tabpanel" aria-labelledby={`section-${section}`} className="mt-6">
        <h3 id="website-section" className="text-xl font-semibold text-slate-900">
          {SECTION_LABELS[section]}
        </h3>
        <Form
          method="post"
          // A section with an upload sends its file with the save, with or without JavaScript.
          encType={FILE_FIELDS[section] ? "multipart/form-data" : undefined}
          preventScrollReset
          key={`${section}-${view.revision}`}
          className="mt-5 grid gap-5 sm:grid-cols-2"
          noValidate
        >
          <input type="hidden" name="intent" value="save-section" />
          <input type="hidden" name="section" value={section} />
          <input type="hidden" name="revision" value={view.revision} />
          {section === "fees" ? (
            <WebsiteFees content={view.content} values={values} errors={errors} />
          ) : section === "services" ? (
            <WebsiteServices content={view.content} values={values} errors={errors} />
          ) : section === "hours" ? (
            <WebsiteHours content={view.content} values={values} errors={errors} />
          ) : (
            fields.map((spec) => (
              <Fragment key={spec.name}>
                {spec.type === "image" || spec.type === "document" ? (
                  <WebsiteFileField spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
                ) : (
                  <WebsiteField spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
                )}
                {section === "policies" && !(values[spec.name] ?? "").trim() ? (
                  <div className="-mt-3 sm:col-span-2">
                    <button type="submit" name="template" value={spec.name.slice("policies.".length)} className={SECONDARY}>
                      {TEXT.templateButton(spec.label)}
                    </button>
                  </div>
                ) : null}
              </Fragment>
            ))
          )}
          {section === "pricing" ? <PopularPlan names={view.content.pricing.plans.map((plan) => plan.name)} value={values.popular ?? "-1"} /> : null}
          <div className="sm:col-span-2">
            <button type="submit" disabled={saving} className={PRIMARY}>
              {saving ? TEXT.saving : TEXT.save}
            </button>
          </div>
        </Form>
      </div>
    </section>
  );
}

function PopularPlan({ names, value }: { names: string[]; value: string }) {
  const options = [...names.map((name, index) => ({ value: String(index), label: name })), { value: "-1", label: TEXT.popularNone }];
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-slate-800">{TEXT.popularLegend}</legend>
      <div className="mt-2 flex flex-wrap gap-4">
        {options.map((option) => (
          <label key={option.value} className="inline-flex items-center gap-2 text-slate-800">
            <input type="radio" name="popular" value={option.value} defaultChecked={value === option.value} className="size-4 accent-blue-700" />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function History({ view }: { view: Extract<WebsiteView, { status: "ok" }> }) {
  return (
    <section aria-labelledby="website-history" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h3 id="website-history" className="text-xl font-semibold text-slate-900">
        {TEXT.historyHeading}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{TEXT.historyIntro}</p>
      {view.versions.length === 0 ? (
        <p className="mt-4 text-slate-700">{TEXT.historyEmpty}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200">
          {view.versions.map((version) => (
            <li key={version.number} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-slate-800">
                <span className="font-semibold">{TEXT.version(version.number)}</span>
                {version.live ? <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">{TEXT.live}</span> : null}
                <span className="block text-sm text-slate-600">
                  {version.publishedLabel} · {version.publishedBy}
                  {version.restoredFrom !== null ? ` · ${TEXT.restoredFrom(version.restoredFrom)}` : ""}
                </span>
              </p>
              <div className="flex gap-3">
                <Link to={`/admin/website/preview?version=${version.number}`} target="_blank" rel="noopener" reloadDocument className={SECONDARY}>
                  {TEXT.preview}
                  <span className="sr-only">
                    {TEXT.version(version.number)} {TEXT.previewHint}
                  </span>
                </Link>
                {version.live ? null : (
                  <Form
                    method="post"
                    preventScrollReset
                    onSubmit={(event) => {
                      if (!window.confirm(TEXT.restoreConfirm(version.number))) event.preventDefault();
                    }}
                  >
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="version" value={version.number} />
                    <input type="hidden" name="revision" value={view.revision} />
                    <button type="submit" className={SECONDARY}>
                      {TEXT.restore} <span className="sr-only">{TEXT.version(version.number)}</span>
                    </button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
