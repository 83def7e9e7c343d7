import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ command }) => ({
  // The server bundle's entry is our Express app, so the React Router build and
  // the code that creates the database share one copy of every module.
  environments: {
    // cssMinify: the server build inlines app.css into the landing page (decision 017), so minify it like the client's.
    ssr: {
      // The production server's dependencies are bundled into it (decision 039): Node then
      // loads a few large files instead of resolving and reading some 900 small ones, which
      // was most of a cold start. Left outside: native code (sharp), what only some sites load,
      // on demand (pg, the S3 client, nodemailer), and what only development uses.
      ...(command === "build" && { resolve: { noExternal: true, external: ["sharp", "pg", "@aws-sdk/client-s3", "nodemailer", "pino-pretty", "vite"] } }),
      build: { rolldownOptions: { input: "./server/index.ts" }, cssMinify: true },
    },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
}));
