/** The data attributes that tie an island's markup to its props (Island.tsx writes them, islands.client.tsx reads them). */
export const ISLAND_ATTRIBUTE = "data-island";
export const ISLAND_PROPS_ATTRIBUTE = "data-island-props";
/** Set on an island's wrapper once its hydration has begun (island-wake.client.ts). */
export const ISLAND_HYDRATING_ATTRIBUTE = "data-island-hydrating";
/** Set on `<body>` once the page's own listeners are installed (entry.client.tsx): before, a click does what it does without JavaScript. */
export const ENHANCED_ATTRIBUTE = "data-enhanced";
