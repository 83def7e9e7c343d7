/**
 * The admin's words. Those from the specification (§2, §5, §8) are used
 * exactly; the rest say what the specification leaves open.
 */
import { groupedDigits } from "../platform/numbers";
export const LOGIN_TEXT = {
  title: "Admin Login",
  subtitle: "Sign in to access the admin dashboard",
  email: "Email",
  password: "Password",
  submit: "Sign In",
  submitting: "Signing in...",
  failure: "Error signing in. Please check your credentials.",
  missing: "Please enter your email and password.",
  limited: "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
  busy: "The server is busy checking other sign-ins. Please try again in a few seconds.",
  insecure: "Signing in needs a secure connection. Open this page over HTTPS (behind a proxy that handles HTTPS, set TRUST_PROXY).",
  checking: "Checking sign-in...",
} as const;

/** The admin's forms (dashboard, Website tab, data requests), for a body that cannot be read as the form (decision 036). */
export const FORM_TEXT = {
  notUnderstood: "The form was not understood. Please reload the page.",
} as const;

export const DASHBOARD_TEXT = {
  /** Enquiries whose follow-up day is today or past (issue 22), beside the unread count. */
  due: (count: number) => `${count} to follow up`,
  title: "Admin Dashboard",
  signOut: "Sign Out",
  projectsTab: "Renovation Projects",
  contactsTab: "Contact Submissions",
  teamTab: "Team",
  viewSite: "View website",
  failedSignIns: (count: number, since: string | undefined) =>
    `${count} failed sign-in ${count === 1 ? "attempt" : "attempts"} on your account since your ${since ? `last sign-in on ${since}` : "account was created"}.`,
  failedSignInsHint: "If they were not you, nobody got in with them; a long password used nowhere else keeps it that way.",
} as const;

/** The database went away or its disk filled up (platform/db/database-health.server.ts): this server's view, kept for a day. */
export const DATABASE_TEXT = {
  diskFullTitle: "The disk is full",
  diskFull: (since: string, failures: number, detail: string) =>
    `Since ${since} the database cannot save anything (${failures} ${failures === 1 ? "attempt" : "attempts"} refused; the database said “${detail}”). Visitors who send an enquiry are asked to try again later, and nothing they send is stored. Free space on the server's disk where the database is kept; the site recovers by itself.`,
  diskWasFullTitle: "The disk was full",
  diskWasFull: (since: string, until: string, failures: number, detail: string) =>
    `From ${since} to ${until} the database could not save anything (${failures} ${failures === 1 ? "attempt" : "attempts"} refused; the database said “${detail}”). Visitors who sent an enquiry then were asked to try again later.`,
  unreachableTitle: "The database cannot be reached",
  unreachable: (since: string, detail: string) => `Since ${since} (${detail}). Pages and enquiries that need it are answered “try again in a moment”.`,
  wasUnreachableTitle: "The database could not be reached",
  wasUnreachable: (since: string, until: string, failures: number, detail: string) =>
    `From ${since} to ${until} (${detail}); ${failures} ${failures === 1 ? "request or task" : "requests or tasks"} failed, and visitors were asked to try again in a moment.`,
} as const;

export const INBOX_TEXT = {
  heading: "Contact Submissions",
  subtitle: "Manage and respond to customer inquiries",
  refresh: "Refresh",
  loading: "Loading contact submissions...",
  loadFailure: "Error loading contact submissions. Please try again.",
  readFailure: "Error updating submission status. Please try again.",
  deleteFailure: "Error deleting submission. Please try again.",
  deleteSuccess: "Contact submission deleted successfully.",
  deleteConfirm: "Are you sure you want to delete this contact submission? This action cannot be undone.",
  markRead: "Mark as read",
  markUnread: "Mark as unread",
  markedRead: "Submission marked as read.",
  markedUnread: "Submission marked as unread.",
  delete: "Delete submission",
  reply: "Reply via Email",
  /** Decision 059: the composer on its own page, and the owner's settings for it. */
  replyHere: "Reply",
  replyNoMail: "Reply from the dashboard needs e-mail set up on the server (SMTP_URL): use Reply via Email.",
  replySettings: "Reply templates and reasons",
  replies: (n: number) => `Replies (${n})`,
  filters: { all: "All", unread: "Unread", read: "Read", held: "Held", spam: "Spam" },
  empty: {
    all: { title: "No contact submissions yet", hint: "Contact form submissions will appear here." },
    unread: { title: "No unread submissions", hint: "Switch to All to see every submission." },
    read: { title: "No read submissions", hint: "Switch to All to see every submission." },
    held: {
      title: "Nothing held",
      hint: "When more enquiries arrive within an hour than the site-wide limit (a flood, usually a bot), the rest are kept here, without an e-mail each, so you can check them and release the real ones with Not spam.",
    },
    spam: {
      title: "No spam caught",
      hint: "Submissions the spam rules catch are kept here, out of your inbox, so you can check that none is real.",
    },
  },
  newer: "Newer submissions",
  older: "Older submissions",
  pageNumber: (page: number) => `Page ${groupedDigits(page)}`,
  search: {
    label: "Search submissions",
    hint: "Name, e-mail, phone or message",
    submit: "Search",
    clear: "Clear search",
    showing: (search: string) => `Showing submissions that match “${search}”.`,
    /** A search too common to count (decision 073): the tabs, statuses and Due show no numbers then. */
    many: (over: number) =>
      `More than ${groupedDigits(over)} submissions match, newest first; the tabs count a search's matches when there are ${groupedDigits(over)} or fewer.`,
    noMatch: (search: string) => `No submissions match “${search}”`,
    noMatchHint: "Try part of a name, an e-mail address, a phone number or a word from the message, or another filter.",
  },
  exportCsv: "Export CSV",
  dataRequests: "Data requests (GDPR)",
  retention: (days: number) => `Enquiries older than ${days} ${days === 1 ? "day is" : "days are"} deleted automatically.`,
  /** The pipeline's Status on each card and its filter (issue 22; the statuses' own words are app/enquiries/pipeline.ts's). */
  status: {
    label: "Status",
    save: "Update status",
    reason: "Why it is not proceeding",
    chooseReason: "Choose a reason",
    otherReason: "Another reason",
    typedReason: "The reason, in a few words",
    missingReason: "Choose why it is not proceeding, or type the reason.",
    invalid: "Choose a status from the list.",
    changed: (status: string) => `Status changed to ${status}.`,
    changedBy: (who: string, when: string) => `changed by ${who}, ${when}`,
    failure: "Error updating the status. Please try again.",
    filter: "Show enquiries with the status",
    allStatuses: "Every status",
    show: "Show",
    none: (status: string) => `No enquiries here with the status ${status}`,
    showAll: "Show every status",
  },
  /** Who deals with an enquiry (issue 22). */
  assign: {
    label: "Assigned to",
    nobody: "Nobody",
    save: "Assign",
    assigned: "Enquiry assigned.",
    unassigned: "Enquiry no longer assigned.",
    unchanged: "It was assigned so already.",
    notAssignable: "Choose a member with the Enquiries or Owner role.",
    failure: "Error assigning the enquiry. Please try again.",
    since: (when: string) => `since ${when}`,
  },
  /** When to follow an enquiry up (issue 22). */
  followUp: {
    label: "Follow up on",
    save: "Save date",
    clear: "Clear date",
    set: "Follow-up date saved.",
    cleared: "Follow-up date cleared.",
    invalid: "Enter a real date, for example 1 December 2026.",
    failure: "Error saving the follow-up date. Please try again.",
    overdue: "Overdue",
    today: "Due today",
  },
  /** The view's narrowing beside the tabs: status, assignee, Due (issue 22). */
  narrow: {
    assignee: "Assigned to",
    anyone: "Anyone",
    mine: "Mine",
    unassigned: "Unassigned",
    due: (count: number | undefined) => `Due: to follow up today or earlier${count === undefined ? "" : ` (${count})`}`,
    none: "No enquiries here match what you chose.",
    showAll: "Show every enquiry",
  },
  /** Internal notes on a card (issue 22): the team's only. */
  notes: {
    title: "Notes",
    label: "Add a note (only the team sees it)",
    add: "Add note",
    added: "Note added.",
    failure: "Error adding the note. Please try again.",
    by: (who: string, when: string) => `${who}, ${when}`,
  },
  spam: {
    badge: "Spam",
    reason: "Caught as spam:",
    notSpam: "Not spam",
    moved: "Moved to the inbox as unread.",
    unmarked: "No longer marked as possible spam.",
    released: "Released from Held: it is in your inbox now.",
    notFound: "This submission is neither under Spam nor marked as possible spam any more. The list has been refreshed.",
    possibleBadge: "Possible spam",
    possibleReason: "Kept in your inbox, but the spam rules noticed:",
    heldBadge: "Held in a flood",
    heldReason: "Held apart from your inbox, with no e-mail of its own:",
    moveToSpam: "Move to Spam",
    filed: "Moved to Spam.",
    notInInbox: "This submission is no longer in the inbox. The list has been refreshed.",
  },
  notification: {
    label: "Notification e-mail:",
    queued: "queued",
    sending: "sending",
    sent: (when: string) => `sent ${when}`,
    failed: "failed",
    failedWith: (error: string) => `failed — ${error}`,
    retrying: (when: string) => `retrying at ${when}`,
    retryingNow: "retrying now",
    gaveUp: (attempts: number) => `gave up after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}`,
    retry: "Retry now",
    retried: "The notification e-mail will be sent again now.",
    notFound: "There is no failed notification e-mail to retry for this submission. The list has been refreshed.",
    retryFailure: "Error retrying the notification e-mail. Please try again.",
  },
  bulk: {
    label: "Bulk actions",
    selectAll: "Select all on this page",
    select: (name: string) => `Select ${name}`,
    selected: (count: number) => (count === 0 ? "No submissions selected" : `${count} selected`),
    markRead: "Mark as read",
    markUnread: "Mark as unread",
    delete: "Delete selected",
    confirm: (count: number) => `Are you sure you want to delete ${submissions(count)}?`,
    markedRead: (count: number) => `${capitalised(submissions(count))} marked as read.`,
    markedUnread: (count: number) => `${capitalised(submissions(count))} marked as unread.`,
    deleted: (count: number) => `${capitalised(submissions(count))} deleted.`,
    noneSelected: "Select at least one submission first.",
    tooMany: (max: number) => `Select at most ${max} submissions at a time.`,
    invalid: "The selection was not understood. Please reload the page and try again.",
    noneFound: "The selected submissions no longer exist. The list has been refreshed.",
    plainFormOnly: "Send bulk actions as an ordinary form (application/x-www-form-urlencoded).",
  },
} as const;

/** "1 submission", "3 submissions". */
function submissions(count: number): string {
  return `${count} ${count === 1 ? "submission" : "submissions"}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What the limits held or turned away in the last 24 hours (decision 037), for the dashboard. */
export const LIMITS_TEXT = {
  held: (count: number, limit: number, last: string) =>
    `${count} ${count === 1 ? "enquiry" : "enquiries"} arrived during a flood in the last 24 hours, after more than ${limit} had arrived within an hour (CONTACT_SITE_LIMIT); the last at ${last}. ${count === 1 ? "It is" : "They are"} stored and held apart, with one summary e-mail every 15 minutes instead of one each: review ${count === 1 ? "it" : "them"} under`,
  heldLink: "Held",
  refused: (parts: string[], last: string) =>
    `Enquiries turned away in the last 24 hours: ${parts.join("; ")}; the last at ${last}. Senders were asked to try again later or to phone.`,
  refusedCeiling: (count: number, limit: number) => `${count} because more than ${limit} arrived within an hour from everyone together (CONTACT_HARD_LIMIT)`,
  refusedAddress: (count: number, limit: number) => `${count} because one connection had sent ${limit} within an hour (CONTACT_RATE_LIMIT)`,
  signIns: (busy: number, limited: number, last: string) =>
    `Sign-in attempts turned away in the last 24 hours: ${busy} because too many were being checked at once, ${limited} over the sign-in limits; the last at ${last}. A browser you have signed in from before still gets in with the right password.`,
  joins: (count: number, limit: number, last: string) =>
    `Invitation pages turned away in the last 24 hours: ${count}, because one connection had tried ${limit} invitation links that do not work within 15 minutes; the last at ${last}. Someone invited on that connection is asked to wait; if they cannot get in, invite them again from`,
  joinsLink: "Team",
  resets: (count: number, perAddress: number, perClient: number, last: string) =>
    `${count} ${count === 1 ? "request" : "requests"} for a new password turned away in the last 24 hours (over ${perAddress} an hour for one address, or ${perClient} an hour from one connection); the last at ${last}. A member who cannot get a link can wait an hour, or an owner can set a password for them (npm run admin -- set-password).`,
} as const;

/** The dashboard's word on e-mail: failing notifications are hard to miss, e-mail off is a quiet note. */
export const MAIL_TEXT = {
  failingTitle: "Notification e-mails are failing",
  failing: (count: number) => (count === 1 ? "1 enquiry has not been e-mailed to you." : `${count} enquiries have not been e-mailed to you.`),
  lastError: (error: string) => `Last error: ${error}`,
  stillHere: (count: number) => (count === 1 ? "It is here in" : "They are all here in"),
  retried: ", and sending is retried automatically.",
  off: "E-mail notifications are off: new enquiries are only shown here.",
  repliesFailingTitle: "Replies are failing",
  repliesFailing: (count: number) => (count === 1 ? "1 reply to a visitor has not been sent." : `${count} replies to visitors have not been sent.`),
  repliesWhere: (count: number) => (count === 1 ? "It shows as failing on its enquiry's card in" : "Each shows as failing on its enquiry's card in"),
} as const;

export const PROJECTS_TEXT = {
  loadFailure: "Error loading projects. Please check your database connection.",
  empty: "No projects found. Add your first project to get started!",
  active: "Active",
  inactive: "Inactive",
  add: "Add Project",
  addTitle: "Add New Project",
  editTitle: "Edit Project",
  cancel: "Cancel",
  create: "Create Project",
  update: "Update Project",
  saving: "Saving...",
  waitForUploads: "Waiting for the images to finish uploading...",
  displayOrder: "Display Order",
  displayOrderHint: "Lower numbers show first on the homepage.",
  beforeImage: "Before Image",
  afterImage: "After Image",
  created: "Project created successfully!",
  updated: "Project updated successfully!",
  saveFailure: "Error saving project. Please try again.",
  deleted: "Project deleted successfully!",
  deleteFailure: "Error deleting project. Please try again.",
  deleteConfirm: "Are you sure you want to delete this project?",
  statusFailure: "Error updating project status. Please try again.",
  orderFailure: "Error updating display order. Please try again.",
  shown: "Project shown on homepage.",
  hidden: "Project hidden from homepage.",
  moved: "Display order updated.",
  alreadyFirst: "This project is already first.",
  alreadyLast: "This project is already last.",
  notFound: "This project no longer exists. The list has been refreshed.",
  moveUp: "Move up",
  moveDown: "Move down",
  hide: "Hide from homepage",
  show: "Show on homepage",
  edit: "Edit project",
  delete: "Delete project",
  labels: { duration: "Duration", budget: "Budget", order: "Order" },
} as const;

export const WEBSITE_TEXT_ADMIN = {
  tab: "Website",
  heading: "Website",
  intro: "Edit your site's texts and prices section by section. Changes are saved as a draft: preview them, then publish to make them live.",
  sectionsLabel: "Sections",
  save: "Save draft",
  saving: "Saving…",
  saved: (section: string) => `${section} saved to the draft. Preview it, or publish to make it live.`,
  previewDraft: "Preview draft",
  preview: "Preview",
  previewHint: "(opens in a new tab)",
  publish: "Publish",
  published: (version: number) => `Published. Version ${version} is live now.`,
  nothingToPublish: "The draft is the same as the live site: there is nothing to publish.",
  discard: "Discard draft",
  discardConfirm: "Discard every unpublished change and go back to what is live?",
  discarded: "The draft is back to what is live.",
  restore: "Restore",
  restoreConfirm: (version: number) => `Publish version ${version} again? It goes live at once, and the draft is reset to it.`,
  restored: (from: number, version: number) => `Version ${from} restored: it is live now as version ${version}.`,
  notFound: "That version is no longer kept.",
  stale:
    "Someone else changed the draft after you opened it, so your change was not made. Your text is still in the form: reload the page to see their changes, then make yours again.",
  unpublished: (when: string, by: string) => `Unpublished changes, last saved ${when} by ${by}.`,
  upToDate: "The draft is the same as the live site.",
  neverPublished: "Nothing has been published yet: the site shows the standard texts.",
  historyHeading: "History",
  historyIntro: "Every publish is kept (the last 50). Preview any of them, or restore one to publish it again.",
  historyEmpty: "No versions yet. Your first publish will be listed here.",
  version: (number: number) => `Version ${number}`,
  live: "Live",
  restoredFrom: (number: number) => `restored from version ${number}`,
  popularLegend: "Marked “Most Popular”",
  popularNone: "None",
  previewBanner: "Preview: this is how the site will look. Visitors do not see it until it is published.",
  previewVersionBanner: (number: number) => `Preview of version ${number}. Visitors see the live version.`,
  backToEditor: "Back to the editor",
  loadError: "The website's content could not be loaded. Please try again in a moment.",
  scheduleLegend: "Publish later",
  scheduleLabel: "Date and time (London time)",
  schedule: "Schedule publish",
  scheduledNotice: "Scheduled. The draft as it is now will be published then, even if nobody is signed in.",
  scheduled: (when: string, by: string) => `Publishing is scheduled for ${when} (London time), set by ${by}.`,
  scheduledChanged: "The draft has changed since: those later changes are not part of it. Schedule again to include them.",
  cancelSchedule: "Cancel schedule",
  unscheduled: "The scheduled publish is cancelled.",
  scheduleInvalid: "Please give a date and a time, such as 1 December 2026, 09:00.",
  schedulePast: "That time has passed. Please choose a time in the future, or publish now.",
  templateButton: (policy: string) => `Start the ${policy} from a template`,
  cmpExpiring: (date: string, days: number) =>
    days < 0
      ? `Your client money protection certificate expired on ${date}. A letting agent that holds client money must be a member of a scheme: renew it and update the Website tab's Legal details.`
      : `Your client money protection certificate expires on ${date}, in ${days} ${days === 1 ? "day" : "days"}. Renew it, then update the date in the Website tab's Legal details.`,
} as const;
