/**
 * What counts as an e-mail address everywhere in the product: the contact
 * form, the admin accounts, the settings (MAIL_FROM, CONTACT_NOTIFY_TO). Text,
 * "@", text, ".", text, as the specification asks, but stricter about what
 * "text" may be: no white space (so no CR/LF), no second "@", no commas,
 * semicolons, angle brackets, quotes or brackets. Those are how an address
 * field smuggles extra recipients or headers into an e-mail. Browser-safe.
 */
const EMAIL_PART = String.raw`[^\s@,;:<>"()\[\]\\\u0000-\u001f\u007f]+`;
const EMAIL_PATTERN = new RegExp(`^${EMAIL_PART}@${EMAIL_PART}\\.${EMAIL_PART}$`);

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value) && !value.includes("..");
}
