import type { ReactNode } from "react";
import type { SectionId } from "./scroll";

const BUTTON_BASE =
  "inline-flex items-center justify-center gap-2 rounded-xl px-6 py-3 text-base font-semibold shadow-sm transition-colors disabled:cursor-not-allowed";

export const BUTTON_STYLES = {
  primary: `${BUTTON_BASE} bg-blue-700 text-white hover:bg-blue-800 active:bg-blue-900 disabled:bg-blue-700/70`,
  secondary: `${BUTTON_BASE} bg-white text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50 hover:ring-slate-400`,
  inverted: `${BUTTON_BASE} bg-white text-blue-800 hover:bg-blue-50`,
} as const;

/** A button that takes the visitor to another section of the page (enhance.client.ts listens for `data-scroll-to`). */
export function ScrollButton({
  to,
  variant = "primary",
  className = "",
  children,
}: {
  to: SectionId;
  variant?: keyof typeof BUTTON_STYLES;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" data-scroll-to={to} className={`${BUTTON_STYLES[variant]} ${className}`}>
      {children}
    </button>
  );
}

/** Eyebrow, title (the section's h2, named by `id`) and an introduction. */
export function SectionHeader({
  id,
  eyebrow,
  title,
  align = "center",
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  align?: "center" | "left";
  children?: ReactNode;
}) {
  return (
    <div className={align === "center" ? "mx-auto max-w-3xl text-center" : "max-w-2xl"}>
      <p className="text-sm font-semibold tracking-wider text-blue-700 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg leading-8 text-pretty text-slate-600">{children}</p> : null}
    </div>
  );
}

/** The landing page's sections share their width and side padding. */
export const CONTAINER = "mx-auto max-w-7xl px-4 sm:px-6 lg:px-8";
