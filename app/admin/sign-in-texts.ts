import { PASSWORD_RULES } from "~/platform/password-rules";

/**
 * The words of the screens around the sign-in form (issue 21): "Forgot your
 * password?", the new password through the e-mailed link, and the two-step
 * code. Kept apart from texts.ts, whose words are the specification's.
 */
export const FORGOT_TEXT = {
  link: "Forgot your password?",
  title: "Forgot your password?",
  subtitle: "Enter the e-mail address you sign in with. If it belongs to a member of the team, we send a link to set a new password.",
  email: "Email",
  submit: "Send the link",
  submitting: "Sending...",
  notAnAddress: "Please enter an e-mail address, such as name@example.com.",
  limited: "Too many requests for a new password. Please wait an hour and try again, or ask an owner to set one for you.",
  sentTitle: "Check your e-mail",
  sent: (minutes: number) =>
    `If that address belongs to a member of the team, an e-mail with a link to set a new password is on its way. The link works once, for ${minutes} minutes.`,
  sentHint: "Nothing after a few minutes? Check your spam folder, or ask again.",
  mailOff:
    "This site cannot send e-mail at the moment (no mail server is set up), so no link can be sent. An owner can set a new password for you on the server with npm run admin -- set-password.",
  backToSignIn: "Back to sign in",
} as const;

export const RESET_TEXT = {
  title: "Set a new password",
  subtitle: (email: string) => `For ${email}. Setting it signs you out of every browser; then sign in with the new password.`,
  password: "New password",
  confirm: "New password again",
  rules: `At least ${PASSWORD_RULES.minLength} characters; a long phrase you use nowhere else is best.`,
  submit: "Set the new password",
  submitting: "Setting...",
  missing: "Please enter the new password twice.",
  mismatch: "The two passwords are not the same. Please type the new password twice.",
  busy: "The server is busy checking other passwords. Please try again in a few seconds.",
  invalidTitle: "This link does not work",
  invalid: "This link is not one we sent, or it was copied only in part. Ask for a new one.",
  expiredTitle: "This link has expired",
  expired: (minutes: number) => `Links to set a new password work for ${minutes} minutes. Ask for a new one.`,
  usedTitle: "This link has been used",
  used: "Each link works once, and this one has already set a password (or a newer link replaced it). Ask for a new one if you need to.",
  askAgain: "Ask for a new link",
  done: "Your new password is set and every browser has been signed out. Sign in with the new password.",
} as const;

export const TWO_STEP_TEXT = {
  title: "Two-step sign-in",
  subtitle: "Enter the 6-digit code your authenticator app shows for this site.",
  code: "Code from your authenticator app",
  codeHint: "6 digits; a new one every 30 seconds.",
  recoverySubtitle: "Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once.",
  recoveryCode: "Recovery code",
  recoveryHint: "24 letters and digits; dashes and spaces do not matter.",
  useRecovery: "Use a recovery code instead",
  useApp: "Use the code from your authenticator app instead",
  submit: "Verify",
  submitting: "Verifying...",
  missing: "Please enter the code.",
  wrong: (left: number) =>
    `That code is not right. Wrong codes count as failed sign-ins; ${left === 1 ? "1 more try" : `${left} more tries`} before you need to enter your password again.`,
  wrongLast: "That code is not right, and that was the last try: wrong codes count as failed sign-ins. Please sign in again with your password.",
  expiredTitle: "Please sign in again",
  expired: (minutes: number) => `The code has to be entered within ${minutes} minutes of the password. Please sign in again with your password.`,
  startAgain: "Sign in again",
  cancel: "Cancel and sign in again",
} as const;

/** The two-step code's page (routes/admin.two-step.tsx). */
export const TWO_STEP_PATH = "/admin/two-step";
