import type { ResponsiveImage } from "~/images/image-files";

/** A renovation project as the site and the API show it (SPEC §3 field names, plus alt text and image sizes). */
export type RenovationProject = {
  id: string;
  title: string;
  category: string;
  description: string;
  duration: string;
  budget: string;
  before_image_url: string;
  after_image_url: string;
  /** The alt text the admin gave, else "Before: <title>". */
  before_image_alt: string;
  /** The alt text the admin gave, else "After: <title>". */
  after_image_alt: string;
  /** Null for an image that was not uploaded here (the sample, older URLs). */
  before_image_sources: ResponsiveImage | null;
  after_image_sources: ResponsiveImage | null;
  is_active: boolean;
  display_order: number;
  created_at: string;
  updated_at: string;
};

export function defaultAlt(side: "before" | "after", title: string): string {
  return `${side === "before" ? "Before" : "After"}: ${title}`;
}
