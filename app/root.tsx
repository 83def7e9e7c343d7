import { useContext } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_FrameworkContext,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useNavigation,
} from "react-router";
import { SignInCheck } from "~/components/SignInCheck";
import { databaseBusyMiddleware } from "~/platform/db/database-busy.server";
import { InlineStyleContext } from "~/platform/http/inline-style";
import type { Route } from "./+types/root";
import "./app.css";

/** A route whose `handle` says `hydrate: "islands"` is hydrated island by island, without React Router (decision 015). */
export type HydrationHandle = { hydrate?: "islands" };

/** Every route: a request the database could not serve in time is answered 503 with Retry-After. */
export const middleware: Route.MiddlewareFunction[] = [databaseBusyMiddleware];

export function Layout({ children }: { children: React.ReactNode }) {
  // Development keeps whole-document hydration: Vite's React refresh needs React Router's <Scripts>.
  const matches = useMatches();
  const islands = import.meta.env.PROD && matches.some((match) => (match.handle as HydrationHandle | undefined)?.hydrate === "islands");
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
        {islands ? <InlineStyle /> : <Links />}
      </head>
      <body data-hydrate={islands ? "islands" : undefined}>
        {children}
        {islands ? (
          <IslandScripts />
        ) : (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        )}
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
 * The landing page's stylesheet, in the page: a phone then paints it after one
 * round trip instead of two (decision 017). Its CSP hash allows it.
 */
function InlineStyle() {
  const css = useContext(InlineStyleContext);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own built stylesheet (inline-style.server.ts), no visitor's text in it.
  return css === undefined ? <Links /> : <style dangerouslySetInnerHTML={{ __html: css }} />;
}

/**
 * The landing page's only script: the browser entry, which hydrates the
 * islands. None of React Router's inline scripts or route modules.
 */
function IslandScripts() {
  const framework = useContext(UNSAFE_FrameworkContext);
  if (!framework) return null;
  const { manifest, nonce } = framework;
  return (
    <>
      {manifest.entry.imports.map((href) => (
        <link key={href} rel="modulepreload" href={href} nonce={nonce} />
      ))}
      <script type="module" src={manifest.entry.module} nonce={nonce} />
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
  return <SignInCheck />;
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
