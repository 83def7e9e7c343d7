/** The words of "Forgot your password?" and of the page its e-mailed link opens (decision 051). */
export const RESET_TEXT = {
  link: "Forgot your password?",
  forgotTitle: "Forgot your password?",
  forgotIntro: "Enter the e-mail address you sign in with. If it belongs to a member of the team, we will e-mail a link to set a new password.",
  email: "Email",
  send: "Send the link",
  notAnAddress: "Please enter a valid email address.",
  /** The same answer for every address: whether it is a member's is not said (decision 043). */
  sent: "If that address belongs to a member of the team, a link to set a new password is on its way. It works once, for 30 minutes. Check the spam folder if it has not arrived in a few minutes.",
  noMail:
    "This site cannot send e-mail (no mail server is set up), so no link can be sent. Ask an owner of the site to set a new password for you (npm run admin -- set-password on the server).",
  limited: (minutes: number) => `Too many requests for a link. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  failure: "The request could not be taken just now. Please try again in a minute.",
  backToSignIn: "Back to sign in",
  resetTitle: "Set a new password",
  resetIntro: (email: string) => `For ${email}. Every browser signed in to this account is signed out.`,
  password: "New password",
  repeat: "Repeat the new password",
  passwordHint: "At least 12 characters.",
  save: "Set the new password",
  mismatch: "The two passwords are not the same.",
  missing: "Please enter the new password twice.",
  invalid: "This link does not work. Ask for a new one from the sign-in page.",
  expired: "This link has run out (links work for 30 minutes). Ask for a new one from the sign-in page.",
  used: "This link has been used already. Ask for a new one from the sign-in page if you need to set the password again.",
  done: "Your new password is set, and every browser that was signed in has been signed out. Sign in with it now.",
} as const;
