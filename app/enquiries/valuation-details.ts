/**
 * The property details a valuation request carries (decision 057): the
 * choices of its lists and their words. A file of its own so that the
 * enquiry's schema (schema.ts) can name them without the valuation's
 * validator (valuation.ts), which builds on that schema.
 */

export const PROPERTY_TYPES = {
  flat: "Flat or apartment",
  terraced: "Terraced house",
  "semi-detached": "Semi-detached house",
  detached: "Detached house",
  bungalow: "Bungalow",
  other: "Other",
} as const;
export const BEDROOMS = { studio: "Studio", "1": "1", "2": "2", "3": "3", "4": "4", "5-plus": "5 or more" } as const;
export const OCCUPANCY = { vacant: "Vacant", let: "Let (tenants living there)", "not-bought": "Not yet bought" } as const;
export const LET_BY = {
  asap: "As soon as possible",
  month: "Within a month",
  "1-3-months": "In 1 to 3 months",
  later: "In more than 3 months",
  unsure: "Not sure yet",
} as const;
export const CALL_TIMES = { morning: "Morning (9am to 12pm)", afternoon: "Afternoon (12pm to 5pm)", evening: "Evening (after 5pm)", any: "Any time" } as const;

export type ValuationDetails = {
  address: string;
  postcode: string;
  propertyType: keyof typeof PROPERTY_TYPES;
  bedrooms: keyof typeof BEDROOMS;
  occupancy: keyof typeof OCCUPANCY;
  letBy: keyof typeof LET_BY;
  callTime: keyof typeof CALL_TIMES;
};
