import { Form, Link } from "react-router";
import { LIMITS, PLACEHOLDERS, type EnquirySettings } from "~/enquiries/replies";
import { NoticeRegion } from "./NoticeRegion";
import { tabPath } from "./tabs";
import type { Notice } from "./types";

/**
 * Contact Submissions' settings (/admin/enquiries/settings, owners only,
 * decision 059): the reply templates, the Not proceeding reasons and the
 * acknowledgement e-mail to the visitor. One plain form, saved together.
 */

export const SETTINGS_TEXT = {
  title: "Replies and reasons",
  subtitle: "The templates your team starts replies from, the reasons offered for Not proceeding, and the e-mail that acknowledges each enquiry.",
  back: "Back to Contact Submissions",
  templates: "Reply templates",
  templatesHelp: "Leave a template's three fields empty to remove it. In the subject and the text you can use:",
  template: (n: number) => `Template ${n}`,
  name: "Name",
  subject: "Subject",
  body: "Text",
  reasons: "Reasons for Not proceeding",
  reasonsHelp: "One a line. Your team can still type another reason on the card.",
  acknowledgement: "Acknowledgement e-mail to the visitor",
  acknowledgementHelp:
    "Sent once an enquiry arrives, at most once a day to the same address, and never for an enquiry marked as spam or possible spam or held in a flood. It never repeats what the visitor wrote (a name that looks like a web address becomes “there”). You can use {first name}, {company} and {phone}.",
  acknowledgementText: "Its text",
  acknowledgementOn: "Send it",
  noMail: "E-mail is off on this server (no SMTP_URL), so nothing is sent until it is set up.",
  save: "Save settings",
  saved: "Settings saved.",
  failure: "The settings could not be saved. Please try again.",
} as const;

const FIELD = "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600";
const LABEL = "block text-sm font-medium text-slate-800";
const PRIMARY = "rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800";

export type SettingsActionData = { notice: Notice; fields?: Record<string, string> };

export function EnquirySettingsPage({ settings, mailOn, result }: { settings: EnquirySettings; mailOn: boolean; result: SettingsActionData | undefined }) {
  const typed = result?.fields;
  const value = (name: string, stored: string) => typed?.[name] ?? stored;
  // One empty template to add, up to the limit.
  const slots = Math.min(LIMITS.templates, settings.templates.length + 1);
  return (
    <section aria-labelledby="enquiry-settings-heading">
      <h2 id="enquiry-settings-heading" className="text-2xl font-bold text-slate-900">
        {SETTINGS_TEXT.title}
      </h2>
      <p className="mt-1 text-slate-600">{SETTINGS_TEXT.subtitle}</p>
      <p className="mt-2">
        <Link to={tabPath("enquiries")} className="text-blue-800 underline underline-offset-2 hover:text-blue-950">
          {SETTINGS_TEXT.back}
        </Link>
      </p>
      <NoticeRegion notice={result?.notice} watch={result} className="mt-4" />
      {mailOn ? null : <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200 ring-inset">{SETTINGS_TEXT.noMail}</p>}
      {/* A new form once saved: the fields start from what was stored. */}
      <Form key={JSON.stringify(settings)} method="post" className="mt-6 space-y-8">
        <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <legend className="px-1 text-lg font-semibold text-slate-900">{SETTINGS_TEXT.templates}</legend>
          <p className="text-sm text-slate-700">{SETTINGS_TEXT.templatesHelp}</p>
          <dl className="mt-2 grid gap-x-3 gap-y-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr]">
            {PLACEHOLDERS.map((placeholder) => (
              <div key={placeholder.token} className="contents">
                <dt className="font-mono font-semibold text-slate-900">{placeholder.token}</dt>
                <dd>{placeholder.means}</dd>
              </div>
            ))}
          </dl>
          {Array.from({ length: slots }, (_, index) => {
            const n = index + 1;
            const template = settings.templates[index];
            return (
              <fieldset key={n} className="mt-4 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset">
                <legend className="px-1 text-sm font-semibold text-slate-900">{SETTINGS_TEXT.template(n)}</legend>
                <div className="grid gap-3 sm:grid-cols-2">
                  <div>
                    <label htmlFor={`template-name-${n}`} className={LABEL}>
                      {SETTINGS_TEXT.name}
                    </label>
                    <input
                      id={`template-name-${n}`}
                      name={`templateName-${n}`}
                      maxLength={LIMITS.name}
                      defaultValue={value(`templateName-${n}`, template?.name ?? "")}
                      className={FIELD}
                    />
                  </div>
                  <div>
                    <label htmlFor={`template-subject-${n}`} className={LABEL}>
                      {SETTINGS_TEXT.subject}
                    </label>
                    <input
                      id={`template-subject-${n}`}
                      name={`templateSubject-${n}`}
                      maxLength={LIMITS.subject}
                      defaultValue={value(`templateSubject-${n}`, template?.subject ?? "")}
                      className={FIELD}
                    />
                  </div>
                </div>
                <label htmlFor={`template-body-${n}`} className={`${LABEL} mt-3`}>
                  {SETTINGS_TEXT.body}
                </label>
                <textarea
                  id={`template-body-${n}`}
                  name={`templateBody-${n}`}
                  rows={6}
                  maxLength={LIMITS.body}
                  defaultValue={value(`templateBody-${n}`, template?.body ?? "")}
                  className={FIELD}
                />
              </fieldset>
            );
          })}
        </fieldset>

        <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <legend className="px-1 text-lg font-semibold text-slate-900">{SETTINGS_TEXT.reasons}</legend>
          <label htmlFor="reasons" className={LABEL}>
            {SETTINGS_TEXT.reasons}
          </label>
          <p id="reasons-help" className="text-sm text-slate-700">
            {SETTINGS_TEXT.reasonsHelp}
          </p>
          <textarea
            id="reasons"
            name="reasons"
            rows={6}
            aria-describedby="reasons-help"
            defaultValue={value("reasons", settings.reasons.join("\n"))}
            className={FIELD}
          />
        </fieldset>

        <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <legend className="px-1 text-lg font-semibold text-slate-900">{SETTINGS_TEXT.acknowledgement}</legend>
          <p id="acknowledgement-help" className="text-sm text-slate-700">
            {SETTINGS_TEXT.acknowledgementHelp}
          </p>
          <label htmlFor="acknowledgement-text" className={`${LABEL} mt-3`}>
            {SETTINGS_TEXT.acknowledgementText}
          </label>
          <textarea
            id="acknowledgement-text"
            name="acknowledgementText"
            rows={8}
            maxLength={LIMITS.body}
            aria-describedby="acknowledgement-help"
            defaultValue={value("acknowledgementText", settings.acknowledgement.text)}
            className={FIELD}
          />
          <div className="mt-3 flex items-center gap-2">
            <input
              id="acknowledgement-on"
              name="acknowledgementOn"
              type="checkbox"
              defaultChecked={typed ? typed.acknowledgementOn === "on" : settings.acknowledgement.on}
              className="size-5 accent-blue-700"
            />
            <label htmlFor="acknowledgement-on" className="text-sm font-medium text-slate-800">
              {SETTINGS_TEXT.acknowledgementOn}
            </label>
          </div>
        </fieldset>

        <button type="submit" className={PRIMARY}>
          {SETTINGS_TEXT.save}
        </button>
      </Form>
    </section>
  );
}
