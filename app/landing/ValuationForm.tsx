import { Icon } from "~/components/Icon";
import { Spinner } from "~/components/Spinner";
import { LIMITS, type ContactActionData } from "~/enquiries/schema";
import { BEDROOMS, CALL_TIMES, LET_BY, OCCUPANCY, PROPERTY_TYPES, VALUATION_LIMITS, VALUATION_TEXT, validateValuation } from "~/enquiries/valuation";
import { PrivacyNotice } from "./ContactForm";
import { Field, INPUT, RequiredMark, SpamFields, useEnquiryForm } from "./enquiry-form";
import { BUTTON_STYLES } from "./ui";

const ERROR_ID = "valuation-form-error";
const PREFIX = "valuation";

/**
 * The valuation request's form on /valuation, an island like the contact
 * form (islands.ts): without JavaScript a plain POST to the page's action,
 * with it checked by the same validator and sent to POST /api/contact as
 * `kind: "valuation"` (decision 057). Choices of a few options are radio
 * groups in a fieldset; longer lists are selects.
 */
export function ValuationForm({
  initialResult,
  formToken,
  retentionDays,
  privacyHref,
}: {
  initialResult: ContactActionData | undefined;
  formToken: string;
  retentionDays: number | undefined;
  privacyHref?: string;
}) {
  const form = useEnquiryForm({ initialResult, validate: validateValuation, errorId: ERROR_ID, idPrefix: PREFIX, successText: VALUATION_TEXT.success });
  const { submitting, fieldProps } = form;

  const choices = (name: string, legend: string, options: Record<string, string>) => {
    const invalid = form.invalidFields.has(name);
    return (
      <fieldset className="sm:col-span-2">
        <legend className="mb-2 text-sm font-semibold text-slate-800">
          {legend}
          <RequiredMark />
        </legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-x-6">
          {Object.entries(options).map(([value, label]) => (
            <label key={value} className="flex min-h-11 items-center gap-3 text-slate-800">
              <input
                type="radio"
                name={name}
                value={value}
                required
                defaultChecked={form.values[name] === value}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? ERROR_ID : undefined}
                className="size-5 shrink-0 accent-blue-700"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  };

  const select = (name: string, label: string, options: Record<string, string>) => (
    <Field label={label} htmlFor={`${PREFIX}-${name}`} required>
      <select {...fieldProps(name)} aria-required="true" className={INPUT}>
        <option value="">Please select</option>
        {Object.entries(options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );

  return (
    <div className="rounded-3xl bg-white p-5 shadow-xl ring-1 ring-slate-200 sm:p-10">
      <p className="text-slate-700">
        Fields marked <span className="font-semibold text-red-700">*</span> are required.
      </p>

      {form.notices}

      <form key={form.formVersion} method="post" action="/valuation" noValidate onSubmit={form.onSubmit} className="mt-6 space-y-10">
        <SpamFields formToken={formToken} idPrefix={PREFIX} />
        <input type="hidden" name="kind" value="valuation" />
        <fieldset className="grid gap-6 sm:grid-cols-2">
          <legend className="mb-4 text-xl font-bold text-slate-900">The property</legend>
          <Field label="Address of the property" htmlFor={`${PREFIX}-address`} required wide>
            <input {...fieldProps("address")} type="text" maxLength={VALUATION_LIMITS.address} aria-required="true" className={INPUT} />
          </Field>
          <Field label="Postcode" htmlFor={`${PREFIX}-postcode`} required>
            <input
              {...fieldProps("postcode")}
              type="text"
              maxLength={VALUATION_LIMITS.postcode}
              autoCapitalize="characters"
              spellCheck={false}
              aria-required="true"
              className={INPUT}
            />
          </Field>
          {select("propertyType", "Type of property", PROPERTY_TYPES)}
          {select("bedrooms", "Bedrooms", BEDROOMS)}
          {choices("occupancy", "Is the property vacant, let or not yet bought?", OCCUPANCY)}
          {choices("letBy", "When would you like it let?", LET_BY)}
        </fieldset>

        <fieldset className="grid gap-6 sm:grid-cols-2">
          <legend className="mb-4 text-xl font-bold text-slate-900">About you</legend>
          <Field label="Full Name" htmlFor={`${PREFIX}-name`} required>
            <input {...fieldProps("name")} type="text" autoComplete="name" maxLength={LIMITS.name} aria-required="true" className={INPUT} />
          </Field>
          <Field label="Email Address" htmlFor={`${PREFIX}-email`} required>
            <input {...fieldProps("email")} type="email" autoComplete="email" maxLength={LIMITS.email} aria-required="true" className={INPUT} />
          </Field>
          <Field label="Phone Number" htmlFor={`${PREFIX}-phone`} required>
            <input {...fieldProps("phone")} type="tel" autoComplete="tel" maxLength={LIMITS.phone} aria-required="true" className={INPUT} />
          </Field>
          {choices("callTime", "Best time to call you", CALL_TIMES)}
          <Field label="Anything else we should know? (optional)" htmlFor={`${PREFIX}-message`} wide>
            <textarea {...fieldProps("message")} rows={4} maxLength={VALUATION_LIMITS.message} className={INPUT} />
          </Field>
        </fieldset>

        <button type="submit" disabled={submitting} className={`w-full sm:w-auto ${BUTTON_STYLES.primary}`}>
          {submitting ? (
            <>
              <Spinner />
              Sending...
            </>
          ) : (
            <>
              Request my free valuation
              <Icon name="arrowRight" className="size-5" />
            </>
          )}
        </button>
      </form>

      <PrivacyNotice
        retentionDays={retentionDays}
        privacyHref={privacyHref}
        stored="the property's details, your name, e-mail address, phone number and any note you add"
      />
    </div>
  );
}
