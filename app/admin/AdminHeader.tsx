import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ACCOUNT_TEXT } from "./account-texts";
import { ACCOUNT_PATH } from "./tabs";
import { DASHBOARD_TEXT } from "./texts";

/** The admin pages' header: who is signed in, a way back to the site, Sign Out. `children` go before the site link. */
export function AdminHeader({ email, logoUrl, children }: { email: string; logoUrl: string; children?: ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <img src={logoUrl} alt="" width={40} height={40} className="size-10" />
          <div className="min-w-0">
            <p className="text-lg font-bold text-slate-900">{DASHBOARD_TEXT.title}</p>
            <p className="text-sm [overflow-wrap:anywhere] text-slate-600">
              Welcome, <span className="font-medium text-slate-800">{email}</span>
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {children}
          <Link to="/" className="text-sm text-blue-800 underline underline-offset-2 hover:text-blue-950">
            {DASHBOARD_TEXT.viewSite}
          </Link>
          <Link to={ACCOUNT_PATH} className="text-sm text-blue-800 underline underline-offset-2 hover:text-blue-950">
            {ACCOUNT_TEXT.link}
          </Link>
          <Form method="post" action="/admin/sign-out">
            <button
              type="submit"
              className="rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              {DASHBOARD_TEXT.signOut}
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}
