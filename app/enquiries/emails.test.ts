import { describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import type { NotificationAddresses } from "~/platform/http/context";
import { acknowledgementEmail, escapeHtml, floodSummaryEmail, messageIdFor, notificationEmail } from "./emails";
import { DEFAULT_ACKNOWLEDGEMENT } from "./replies";
import type { Enquiry } from "./schema";

const mail: NotificationAddresses = {
  from: "Example Property <enquiries@mail.example.com>",
  notifyTo: ["office@example.com", "lettings@example.com"],
};

const enquiry: Enquiry = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  phone: "020 7946 0001",
  userType: "investor",
  message: "Two flats in Leeds.\nBoth empty since May.\n\nCan you help?",
};

const hostile: Enquiry = {
  name: `Eve <script>alert("x")</script> & 'friends'`,
  email: "eve@example.org",
  phone: `<b>"0"</b> & '1'`,
  userType: "other",
  message: `<img src=x onerror=alert(1)> "quoted" & 'single'\n</div><a href="https://spam.example">win</a>`,
};

// 14:05 UTC on 22 November is 14:05 in London (GMT).
const receivedAt = "2026-11-22T14:05:00.000Z";

function notify(input: Enquiry = enquiry) {
  return notificationEmail({ enquiry: input, receivedAt, mail, messageId: "<job-1@mail.example.com>" });
}

function acknowledge(input: Enquiry = enquiry) {
  return acknowledgementEmail({ enquiry: input, mail, company: PLACEHOLDER_COMPANY, text: DEFAULT_ACKNOWLEDGEMENT, messageId: "<job-2@mail.example.com>" });
}

describe("the notification e-mail", () => {
  it("goes from MAIL_FROM to every CONTACT_NOTIFY_TO address, replying to the visitor", () => {
    expect(notify()).toMatchObject({
      from: mail.from,
      to: ["office@example.com", "lettings@example.com"],
      replyTo: "ada@example.org",
      messageId: "<job-1@mail.example.com>",
    });
  });

  it("names the sender and their user type in the subject", () => {
    expect(notify().subject).toBe("New enquiry from Ada Lovelace (Property Investor)");
    expect(notify({ ...enquiry, userType: "landlord" }).subject).toBe("New enquiry from Ada Lovelace (Landlord)");
  });

  it("labels every field in the text body and keeps the message's line breaks", () => {
    const { text } = notify();
    expect(text).toContain("Name: Ada Lovelace\n");
    expect(text).toContain("Email: ada@example.org\n");
    expect(text).toContain("Phone: 020 7946 0001\n");
    expect(text).toContain("I am a: Property Investor\n");
    expect(text).toContain("Received: 22 Nov 2026, 14:05\n");
    expect(text).toContain("Two flats in Leeds.\nBoth empty since May.\n\nCan you help?");
    expect(text).toContain("Replying to this e-mail answers Ada Lovelace directly.");
    expect(text).toContain("Every enquiry is also in Contact Submissions in the admin dashboard.");
  });

  it("shows the received time in UK summer time when it applies", () => {
    const summer = notificationEmail({ enquiry, receivedAt: "2026-07-01T09:30:00.000Z", mail, messageId: "<a@b.c>" });
    expect(summer.text).toContain("Received: 1 Jul 2026, 10:30\n");
  });

  it('says "not given" for a missing phone number', () => {
    const { text, html } = notify({ ...enquiry, phone: undefined });
    expect(text).toContain("Phone: not given\n");
    expect(html).toContain("not given");
  });

  it("escapes every value in the HTML body and keeps the message's line breaks with pre-wrap", () => {
    const { html } = notify(hostile);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain('<a href="https://spam.example">');
    expect(html).toContain("Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;");
    expect(html).toContain("&lt;b&gt;&quot;0&quot;&lt;/b&gt; &amp; &#39;1&#39;");
    expect(html).toContain(
      "&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; &#39;single&#39;\n&lt;/div&gt;&lt;a href=&quot;https://spam.example&quot;&gt;win&lt;/a&gt;",
    );
    expect(html).toMatch(/white-space:\s*pre-wrap/);
    for (const label of ["Name", "Email", "Phone", "I am a", "Received", "Message"]) expect(html).toContain(`>${label}<`);
    expect(html).toContain("Replying to this e-mail answers Eve &lt;script&gt;");
    expect(html).toContain("Every enquiry is also in Contact Submissions in the admin dashboard.");
  });

  it("keeps the subject as typed: nodemailer encodes it, and the schema refuses line breaks in a name", () => {
    expect(notify(hostile).subject).toBe(`New enquiry from ${hostile.name} (Other)`);
  });
});

describe("the acknowledgement e-mail", () => {
  it("goes to the visitor, replying to the first notified address, with the company in the subject", () => {
    expect(acknowledge()).toMatchObject({
      from: mail.from,
      to: ["ada@example.org"],
      replyTo: "office@example.com",
      subject: "We received your message – Example Property Management Ltd",
      messageId: "<job-2@mail.example.com>",
    });
  });

  it("is the owner's text with its placeholders filled: the visitor's first name, the company's name and phone", () => {
    const { text, html } = acknowledge();
    expect(text).toMatch(/^Hello Ada,\n/);
    expect(text).toContain(`Thank you for contacting ${PLACEHOLDER_COMPANY.name}.`);
    expect(text).toContain(`please call us on ${PLACEHOLDER_COMPANY.phone}.`);
    expect(html).toContain("Hello Ada,");
    const own = acknowledgementEmail({ enquiry, mail, company: PLACEHOLDER_COMPANY, text: "Hi {first name} & co, it's {company}.", messageId: "<m@x>" });
    expect(own.text).toBe(`Hi Ada & co, it's ${PLACEHOLDER_COMPANY.name}.\n`);
    expect(own.html).toContain("Hi Ada &amp; co, it&#39;s");
  });

  it("never repeats the visitor's message, phone or a link they typed", () => {
    const { text, html, subject } = acknowledge(hostile);
    for (const part of [text, html, subject]) {
      expect(part).not.toContain("spam.example");
      expect(part).not.toContain("onerror");
      expect(part).not.toContain("quoted");
      expect(part).not.toContain('"0"');
    }
    const linkInName = acknowledge({ ...enquiry, name: "Cheap pills at www.spam.example" });
    expect(`${linkInName.text}${linkInName.html}`).not.toContain("spam.example");
    expect(linkInName.text).toMatch(/^Hello there,\n/);
    expect(acknowledge({ ...enquiry, name: "Visit https://spam.example/now" }).text).not.toContain("spam.example");
  });

  it("escapes the name in its HTML body", () => {
    expect(acknowledge({ ...enquiry, name: `O'Brien<b>&</b> Smith` }).html).toContain("Hello O&#39;Brien&lt;b&gt;&amp;&lt;/b&gt;,");
  });
});

describe("message ids and escaping", () => {
  it("builds the Message-ID from the job id and MAIL_FROM's domain", () => {
    expect(messageIdFor("4f1c", "Example Property <enquiries@mail.example.com>")).toBe("<4f1c@mail.example.com>");
    expect(messageIdFor("4f1c", "enquiries@example.co.uk")).toBe("<4f1c@example.co.uk>");
  });

  it("escapes the five characters that matter in HTML", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
    expect(escapeHtml("plain text")).toBe("plain text");
  });
});

describe("the flood summary e-mail", () => {
  const summary = (count: number, reviewUrl?: string) =>
    floodSummaryEmail({
      count,
      from: "2026-11-22T14:00:00.000Z",
      until: "2026-11-22T14:15:00.000Z",
      siteLimit: 100,
      mail,
      messageId: "<job-3@mail.example.com>",
      reviewUrl,
    });

  it("says how many arrived in the window and where to review them, to the company only", () => {
    const email = summary(37, "https://lettings.example.com/admin?tab=contacts&filter=held");
    expect(email.subject).toBe("37 enquiries arrived during a flood; review them");
    expect(email.to).toEqual(mail.notifyTo);
    expect(email.replyTo).toBeUndefined();
    expect(email.messageId).toBe("<job-3@mail.example.com>");
    expect(email.text).toContain("Between 22 Nov 2026, 14:00 and 14:15 (UK time), 37 enquiries arrived after more than 100 had arrived within the hour");
    expect(email.text).toContain(
      "Review them under Contact Submissions, Held, in the admin dashboard: https://lettings.example.com/admin?tab=contacts&filter=held.",
    );
    expect(email.html).toContain('<a href="https://lettings.example.com/admin?tab=contacts&amp;filter=held">');
  });

  it("reads right for one, and without PUBLIC_URL names the place without a link", () => {
    const email = summary(1);
    expect(email.subject).toBe("1 enquiry arrived during a flood; review it");
    expect(email.text).toContain("Review it under Contact Submissions, Held, in the admin dashboard. If it is real, Not spam moves it to your inbox.");
    expect(email.html).not.toContain("<a ");
  });
});
