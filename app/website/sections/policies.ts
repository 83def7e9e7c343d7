import { textValues, type FieldSpec, type Section } from "../fields";
import type { SiteCompany } from "./company";
import type { SiteLegal } from "./legal";

/** The three policies, each a page of its own linked from every footer (decision 028). */
export const POLICIES = [
  { key: "privacy", path: "/privacy", title: "Privacy Policy" },
  { key: "terms", path: "/terms", title: "Terms of Service" },
  { key: "cookies", path: "/cookies", title: "Cookie Policy" },
] as const;
export type PolicyKey = (typeof POLICIES)[number]["key"];

/** Markdown; "" while a policy is not written (its footer link stays a placeholder). */
export type SitePolicies = Record<PolicyKey, string>;

export const POLICY_MAX = 30_000;

export const POLICIES_TEXT = {
  policyNesting: (label: string, max: number) => `${label}: lists and quotes can be nested at most ${max} deep. Please simplify the structure.`,
} as const;

const FIELDS: FieldSpec[] = POLICIES.map(({ key, title }) => ({
  name: `policies.${key}`,
  label: title,
  max: POLICY_MAX,
  required: false,
  multiline: true,
  hint: "Markdown: # for headings, - for lists, [text](https://…) for links. Leave empty to keep the footer link as a placeholder.",
}));

/** The tab's screen adds "Start from a template" under an empty policy (app/admin/WebsitePanel.tsx, policyTemplate below). */
export const section: Section<"policies", SitePolicies> = {
  label: "Policies",
  ownerOnly: true,
  defaults: () => ({ privacy: "", terms: "", cookies: "" }),
  fields: () => FIELDS,
  values: ({ policies }) => textValues("policies", policies),
  parse: ({ get, errors }) => {
    for (const { key, title } of POLICIES) {
      const name = `policies.${key}`;
      if (!errors[name] && policyNesting(get(name)) > MAX_POLICY_NESTING) errors[name] = POLICIES_TEXT.policyNesting(title, MAX_POLICY_NESTING);
    }
    return { policies: { privacy: get("policies.privacy"), terms: get("policies.terms"), cookies: get("policies.cookies") } };
  },
};

/**
 * The bound a policy's Markdown is held to when it is saved (besides its
 * length, POLICY_MAX): how deep its lists and block quotes nest. A policy
 * needs two or three levels; thousands (a line of `>`) once overflowed the
 * renderer's stack and made /terms answer 500, and the renderer now stops
 * reading at its own nesting limit, which a saved policy must never reach
 * (policy-html.server.ts). No parser here: this runs in the browser too, and
 * on every save and import.
 */
export const MAX_POLICY_NESTING = 6;

const MARKER = /^(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/;

/**
 * How deep a line's lists and quotes go, at most: each `>` and list marker
 * before its text, and its indentation in steps of two columns (a nested
 * list's items sit under their parent's text, two columns in at least).
 * Never less than the real depth, so a text within the bound is within it.
 */
function lineNesting(line: string): number {
  let markers = 0;
  let indentation = 0;
  let at = 0;
  for (;;) {
    let run = 0;
    for (; at < line.length && (line[at] === " " || line[at] === "\t"); at++) run += line[at] === "\t" ? 4 : 1;
    // After a marker, the one space that ends it is not indentation.
    indentation += markers === 0 ? run : Math.max(0, run - 1);
    const marker = MARKER.exec(line.slice(at, at + 11));
    if (!marker) break;
    markers++;
    at += marker[0].length;
  }
  return markers + Math.floor(indentation / 2);
}

/** The deepest nesting of lists and quotes in a Markdown text, as lineNesting counts it. */
export function policyNesting(text: string): number {
  let deepest = 0;
  for (const line of text.split("\n")) deepest = Math.max(deepest, lineNesting(line));
  return deepest;
}

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

type TemplateInput = { content: { company: SiteCompany; legal: SiteLegal }; retentionDays: number | undefined };

function who(content: TemplateInput["content"]): string {
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
