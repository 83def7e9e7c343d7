import type { PolicyKey, SiteContent } from "./content";

/**
 * Starting points for the three policies, made from the company's details and
 * what this site really does: the contact form stores name, e-mail, phone,
 * type of enquiry and message, for ENQUIRY_RETENTION_DAYS or until deleted;
 * the public site sets no cookies (the admin's sign-in sets two, only for
 * /admin). Each starts with a notice that it is a template to be reviewed:
 * the company publishes it, and answers for it.
 */
export const TEMPLATE_NOTICE =
  "> **Template: review before publishing.** This text was generated from your company details and what this website does. Check every statement with your own practices and, if in doubt, a solicitor; then delete this note.";

type TemplateInput = { content: SiteContent; retentionDays: number | undefined };

function who(content: SiteContent): string {
  const { company, legal } = content;
  const name = legal.registeredName || company.name;
  const number = legal.companyNumber ? ` (company number ${legal.companyNumber})` : "";
  const office = legal.registeredOffice || company.address;
  return `${name}${number}, ${office}`;
}

function privacy({ content, retentionDays }: TemplateInput): string {
  const { company, legal } = content;
  const kept =
    retentionDays === undefined
      ? "We keep an enquiry for as long as we need it to deal with you, and delete it when you ask us to."
      : `We delete an enquiry ${retentionDays} ${retentionDays === 1 ? "day" : "days"} after we receive it, or sooner if you ask us to.`;
  return [
    TEMPLATE_NOTICE,
    "",
    "## Who we are",
    `${who(content)} is the controller of the personal data described here.${legal.icoNumber ? ` We are registered with the Information Commissioner's Office under number ${legal.icoNumber}.` : ""}`,
    `You can contact us at ${company.email} or on ${company.phone}.`,
    "",
    "## What we collect through this website",
    "When you send the contact form we store your name, e-mail address, phone number (if you give one), whether you are a landlord, tenant or investor, and your message. We also keep the time you sent it.",
    "",
    "## Why, and on what basis",
    "We use these details only to answer your enquiry and, if you become a client, to take the steps you ask for before a contract (UK GDPR Article 6(1)(b)), or because answering you is in our legitimate interests (Article 6(1)(f)). We never sell your details or share them with third parties for marketing.",
    "",
    "## How long we keep it",
    kept,
    "",
    "## Your rights",
    "You may ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it. Write to us at the address above. You may also complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).",
    "",
    "## Cookies",
    "This website sets no cookies for visitors; our Cookie Policy says more.",
  ].join("\n");
}

function terms({ content }: TemplateInput): string {
  const { company } = content;
  return [
    TEMPLATE_NOTICE,
    "",
    "## About these terms",
    `This website is run by ${who(content)}. By using it you accept these terms.`,
    "",
    "## Information on this website",
    "We keep the information on this website up to date, but it is general information, not advice, and it does not form an offer. Our services are provided under a separate written agreement, which sets out our fees in full; every fee we charge is listed on our [fees page](/fees).",
    "",
    "## Enquiries",
    "Sending the contact form does not create a contract. We will reply to you, usually within one working day.",
    "",
    "## Liability",
    "Nothing in these terms limits our liability where it would be unlawful to do so, including for death or personal injury caused by negligence, or for fraud.",
    "",
    "## Law",
    `These terms are governed by the law of England and Wales. Questions about them: ${company.email}.`,
  ].join("\n");
}

function cookies({ content }: TemplateInput): string {
  return [
    TEMPLATE_NOTICE,
    "",
    "## Cookies on this website",
    "This website sets no cookies for its visitors and uses no analytics, advertising or tracking. Nothing is stored on your device when you read the site or send the contact form.",
    "",
    "## Our staff's sign-in",
    "The part of the site where our staff sign in (/admin) sets two cookies, only for them, when they sign in: one that keeps them signed in, and one that recognises a browser they have signed in from before. Both are strictly necessary and are never set for visitors.",
    "",
    "## Questions",
    `Ask us at ${content.company.email}.`,
  ].join("\n");
}

const MAKERS: Record<PolicyKey, (input: TemplateInput) => string> = { privacy, terms, cookies };

export function policyTemplate(key: PolicyKey, input: TemplateInput): string {
  return MAKERS[key](input);
}
