import { Link, isRouteErrorResponse } from "react-router";
import { LoginScreen } from "./LoginScreen";

/**
 * What an admin route shows when its loader or action refuses: the sign-in
 * form for anybody not signed in (the admin layout's 401, so the HTML holds no
 * admin data), a plain explanation for anything else.
 */
export function AdminErrorBoundary({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 401) return <LoginScreen />;
  let title = "Something went wrong";
  let details = "The dashboard could not be shown. Please try again in a moment.";
  const refusal = isRouteErrorResponse(error) ? (error.data as { reason?: unknown; message?: unknown } | null) : null;
  if (isRouteErrorResponse(error) && error.status === 403 && refusal?.reason === "forbidden" && typeof refusal.message === "string") {
    // A page outside the member's role (auth/require-role.server.ts).
    title = "Not part of your role";
    details = refusal.message;
  } else if (isRouteErrorResponse(error) && error.status === 403) {
    title = "Request refused";
    details = "This request came from another website, so it was not carried out.";
  } else if (isRouteErrorResponse(error) && error.status === 404) {
    title = "Page not found";
    details = "The page you asked for does not exist.";
  } else if (!isRouteErrorResponse(error) && typeof document !== "undefined") {
    // On the server, entry.server.tsx's handleError has logged it already, as one JSON line (an aborted request not at all);
    // a refusal (a 405 for a form posted where none is taken) is the request log's line. In the browser, the unexpected is written out.
    console.error(error);
  }
  return (
    <main className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p className="mt-4 text-slate-700">{details}</p>
      <p className="mt-6">
        <Link to="/admin" reloadDocument className="text-blue-800 underline underline-offset-2">
          Back to the dashboard
        </Link>
      </p>
    </main>
  );
}
