/** How the admin writes to a sender: mailto: links. Dates are in ~/platform/dates. */

/** An address for a mailto: link. Only the characters that mean something in a URL are escaped; "@" stays. */
function mailtoAddress(email: string): string {
  return encodeURIComponent(email).replace(/%40/g, "@");
}

export function mailtoHref(email: string): string {
  return `mailto:${mailtoAddress(email)}`;
}

/**
 * "Reply via Email": a new message to the sender with a subject about the
 * inquiry and a greeting. encodeURIComponent, not URLSearchParams: mail
 * clients show a "+" literally, and line breaks must be CRLF (RFC 6068).
 */
export function replyHref(submission: { name: string; email: string }, companyName: string): string {
  const subject = `Re: Your inquiry to ${companyName}`;
  const body = `Dear ${submission.name},\r\n\r\nThank you for getting in touch.\r\n\r\n`;
  return `${mailtoHref(submission.email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
