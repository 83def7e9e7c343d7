import type { ReactNode } from "react";
import { Spinner } from "~/components/Spinner";
import { useHydrated } from "./use-hydrated";

/**
 * The button of a passkey ceremony outside a form ("Sign in with a
 * passkey", "Join with a passkey"): disabled until the page runs JavaScript
 * (the ceremony is the browser's; `needsScript` says so when it is off),
 * busy while the browser and the server work, and the error, announced,
 * under it.
 */
export function PasskeyButton({
  label,
  working,
  needsScript,
  busy,
  error,
  onPress,
  describedBy,
  children,
}: {
  label: string;
  working: string;
  needsScript: string;
  busy: boolean;
  error: string | undefined;
  onPress: () => void;
  describedBy?: string;
  /** What goes between the no-JavaScript notice and the button (a hint). */
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <div className="mt-6 border-t border-slate-200 pt-6">
      <noscript>
        <p className="mb-3 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950">{needsScript}</p>
      </noscript>
      {children}
      <button
        type="button"
        onClick={onPress}
        disabled={!hydrated || busy}
        aria-describedby={describedBy}
        className="flex w-full items-center justify-center gap-2 rounded-lg bg-white px-4 py-3 font-semibold text-slate-900 shadow-sm ring-1 ring-slate-400 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {busy ? <Spinner className="size-4" /> : null}
        {busy ? working : label}
      </button>
      <div aria-live="polite">
        {error ? (
          <p role="alert" className="mt-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
