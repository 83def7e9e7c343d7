import { ENHANCED_ATTRIBUTE } from "./landing/island-attributes";
import { wakeIslands } from "./landing/island-wake.client";
import { enhanceMobileMenu, enhanceScrollTargets, showSignInCheckOnAdminLink } from "./landing/enhance.client";

/**
 * Two ways into the browser (decision 015). The landing page (`<body
 * data-hydrate="islands">`, see root.tsx) hydrates only its interactive
 * islands with React, without React Router, which keeps its JavaScript within
 * budget; every other page hydrates the whole document with React Router.
 * Both are loaded on demand, so neither's code is in the other's page.
 */
enhanceScrollTargets();
enhanceMobileMenu();
if (document.body.dataset.hydrate === "islands") {
  showSignInCheckOnAdminLink();
  // Each island when it comes near the screen or is touched (decision 072): until then the
  // page works as it does without JavaScript (the form posts, the links jump).
  wakeIslands(() => import("./landing/islands.client").then(({ hydrateIsland }) => hydrateIsland));
  document.body.setAttribute(ENHANCED_ATTRIBUTE, "");
} else {
  void import("./hydrate-router.client");
}
