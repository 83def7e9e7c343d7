/**
 * The admin's words. Those from the specification (§2, §5, §8) are used
 * exactly; the rest say what the specification leaves open.
 */
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
  insecure:
    "Signing in needs a secure connection. Open this page over HTTPS (behind a proxy that handles HTTPS, set TRUST_PROXY).",
  checking: "Checking sign-in...",
} as const;

export const DASHBOARD_TEXT = {
  title: "Admin Dashboard",
  signOut: "Sign Out",
  projectsTab: "Renovation Projects",
  contactsTab: "Contact Submissions",
  viewSite: "View website",
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
  filters: { all: "All", unread: "Unread", read: "Read" },
  empty: {
    all: { title: "No contact submissions yet", hint: "Contact form submissions will appear here." },
    unread: { title: "No unread submissions", hint: "Switch to All to see every submission." },
    read: { title: "No read submissions", hint: "Switch to All to see every submission." },
  },
  newer: "Newer submissions",
  older: "Older submissions",
} as const;

export const PROJECTS_TEXT = {
  loadFailure: "Error loading projects. Please check your database connection.",
  empty: "No projects found. Add your first project to get started!",
  active: "Active",
  inactive: "Inactive",
} as const;
