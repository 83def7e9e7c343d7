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
  // After the page has loaded: React's 70 KB then never compete with the page's
  // own stylesheet and pictures for a phone's bandwidth. Until then the page
  // works as it does without JavaScript (the form posts, the links jump).
  const hydrate = () => void import("./landing/islands.client").then(({ hydrateIslands }) => hydrateIslands());
  if (document.readyState === "complete") hydrate();
  else window.addEventListener("load", hydrate, { once: true });
} else {
  void import("./hydrate-router.client");
}
