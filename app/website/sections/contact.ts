import { headingFields, headingFrom, headingValues, type Heading, type Section } from "../fields";

/** The Contact section's texts; phoneNote and emailNote are edited with the business hours (sections/hours.ts). */
export type SiteContact = Heading & { phoneNote: string; emailNote: string };

const FIELDS = headingFields("contact");

export const section: Section<"contact", SiteContact> = {
  label: "Contact",
  defaults: () => ({
    eyebrow: "Get in touch",
    title: "Let's Talk About Your Property",
    intro: "Whether you are a landlord, a property investor or a tenant, send us a message and the right person will get back to you.",
    phoneNote: "Phone line open 9am – 6pm, Monday to Friday",
    emailNote: "We answer every e-mail within 24 hours",
  }),
  fields: () => FIELDS,
  values: (content) => headingValues("contact", content.contact),
  // Every field named, never current's spread: a key no form has does not ride along into the draft.
  parse: (form, current) => ({ contact: { ...headingFrom(form, "contact"), phoneNote: current.contact.phoneNote, emailNote: current.contact.emailNote } }),
};
