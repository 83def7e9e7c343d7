// prom-client's parts, imported one by one (metrics.server.ts, decision 081): its index also
// loads its Pushgateway, and with it node:https and node:tls. Typed from the package's own index.
declare module "prom-client/lib/registry.js" {
  export { Registry as default } from "prom-client";
}
declare module "prom-client/lib/counter.js" {
  export { Counter as default } from "prom-client";
}
declare module "prom-client/lib/gauge.js" {
  export { Gauge as default } from "prom-client";
}
declare module "prom-client/lib/histogram.js" {
  export { Histogram as default } from "prom-client";
}
declare module "prom-client/lib/defaultMetrics.js" {
  export { collectDefaultMetrics as default } from "prom-client";
}
