import { enhanceScrollTargets, showSignInCheckOnAdminLink } from "./landing/enhance.client";

/**
 * Two ways into the browser (decision 015). The landing page (`<body
 * data-hydrate="islands">`, see root.tsx) hydrates only its interactive
 * islands with React, without React Router, which keeps its JavaScript within
 * budget; every other page hydrates the whole document with React Router.
 * Both are loaded on demand, so neither's code is in the other's page.
 */
enhanceScrollTargets();
if (document.body.dataset.hydrate === "islands") {
  showSignInCheckOnAdminLink();
  void import("./landing/islands.client").then(({ hydrateIslands }) => hydrateIslands());
} else {
  void import("./hydrate-router.client");
}
