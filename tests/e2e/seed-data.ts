import type { NewProject } from "~/projects/projects.server";

/**
 * The gallery the end-to-end tests expect. Inserted in an order different
 * from the display order, so a page that ignores display_order is caught.
 * Each project has its own image URLs (a query string on the bundled samples)
 * so a test can tell one slide's images from another's.
 */
export type SeedProject = Required<Omit<NewProject, "before_image_alt" | "after_image_alt">>;

const image = (which: "before" | "after", key: string) => `/samples/kitchen-${which}.svg?e2e=${key}`;

export const GARDEN_FLAT: SeedProject = {
  title: "Garden Flat Bathroom",
  category: "Bathroom Renovation",
  description: "A dated bathroom in a garden flat replaced with a walk-in shower, new tiling and ventilation.",
  duration: "2 weeks",
  budget: "£9,800",
  before_image_url: image("before", "garden"),
  after_image_url: image("after", "garden"),
  is_active: true,
  display_order: 2,
};

export const VICTORIAN_TERRACE: SeedProject = {
  title: "Victorian Terrace Refurbishment",
  category: "Full Refurbishment",
  description: "A three-storey Victorian terrace rewired, replumbed and redecorated throughout ahead of a new tenancy.",
  duration: "6 weeks",
  budget: "£42,000",
  before_image_url: image("before", "terrace"),
  after_image_url: image("after", "terrace"),
  is_active: true,
  display_order: 0,
};

export const HIDDEN_PROJECT: SeedProject = {
  title: "Hidden Basement Conversion",
  category: "Basement Conversion",
  description: "An inactive project: it must never appear on the public site.",
  duration: "10 weeks",
  budget: "£60,000",
  before_image_url: image("before", "hidden"),
  after_image_url: image("after", "hidden"),
  is_active: false,
  display_order: 1,
};

export const LOFT_CONVERSION: SeedProject = {
  title: "Loft Conversion in Leeds",
  category: "Loft Conversion",
  description: "An unused loft turned into a bright double bedroom with an en-suite and dormer windows.",
  duration: "8 weeks",
  budget: "£35,500",
  before_image_url: image("before", "loft"),
  after_image_url: image("after", "loft"),
  is_active: true,
  display_order: 1,
};

/** Insertion order (deliberately not display order). */
export const SEED_PROJECTS: SeedProject[] = [GARDEN_FLAT, VICTORIAN_TERRACE, HIDDEN_PROJECT, LOFT_CONVERSION];

/** What the public gallery must show, in this order. */
export const ACTIVE_IN_ORDER: SeedProject[] = [VICTORIAN_TERRACE, LOFT_CONVERSION, GARDEN_FLAT];
