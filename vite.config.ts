import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server bundle's entry is our Express app, so the React Router build and
  // the code that creates the database share one copy of every module.
  environments: {
    // cssMinify: the server build inlines app.css into the landing page (decision 017), so minify it like the client's.
    ssr: { build: { rolldownOptions: { input: "./server/index.ts" }, cssMinify: true } },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
});
