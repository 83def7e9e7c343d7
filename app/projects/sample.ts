import type { RenovationProject } from "./types";

/**
 * Shown when the gallery cannot be loaded, so the section never sits empty
 * because of an outage. Its images ship with the site.
 */
export const SAMPLE_PROJECT: RenovationProject = {
  id: "sample-victorian-kitchen",
  title: "Victorian Kitchen Transformation",
  category: "Kitchen Renovation",
  description:
    "A tired Victorian terrace kitchen opened up and rebuilt: new units and worktops, restored flooring, better light and modern appliances, ready for a new tenancy.",
  duration: "3 weeks",
  budget: "£15,000",
  before_image_url: "/samples/kitchen-before.svg",
  after_image_url: "/samples/kitchen-after.svg",
  before_image_alt: "Before: Victorian Kitchen Transformation",
  after_image_alt: "After: Victorian Kitchen Transformation",
  before_image_sources: null,
  after_image_sources: null,
  is_active: true,
  display_order: 0,
  created_at: "2024-01-01T00:00:00.000Z",
  updated_at: "2024-01-01T00:00:00.000Z",
};
