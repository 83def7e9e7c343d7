import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useNavigation,
} from "react-router";
import { Spinner } from "~/components/Spinner";
import type { Route } from "./+types/root";
import "./app.css";

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/icon-192.png" type="image/png" sizes="192x192" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href="/site.webmanifest" />
        {/* The logo's blue, as in the manifest. */}
        <meta name="theme-color" content="#1d4ed8" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <>
      <Outlet />
      <CheckingSignIn />
    </>
  );
}

/**
 * On the way to /admin from another page (the footer's Admin link), the
 * server checks the session before anything of the dashboard can show: say so.
 */
function CheckingSignIn() {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "loading" || navigation.location.pathname !== "/admin" || location.pathname === "/admin") {
    return null;
  }
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-white/85">
      <p role="status" className="flex items-center gap-3 text-lg font-medium text-slate-800">
        <Spinner className="size-6 text-blue-700" />
        Checking sign-in...
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let details = "Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Page not found" : `Error ${error.status}`;
    details = error.status === 404 ? "The page you asked for does not exist." : error.statusText || details;
  }
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-4">{details}</p>
      <p className="mt-4">
        <a className="text-blue-700 underline" href="/">
          Back to the home page
        </a>
      </p>
    </main>
  );
}
