import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { constants as zlibConstants } from "node:zlib";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

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
      // ASCII, comments left out: V8 keeps a file's source two bytes a character as soon as one
      // character is not ASCII, for as long as the server runs (4–5 MB of RSS, decision 081).
      build: { rolldownOptions: { input: "./server/index.ts", output: { charset: "ascii", comments: false } }, cssMinify: true },
    },
  },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    reactRouter(),
    // The browser's files compressed once, at build time, as well as they compress (Brotli 11,
    // gzip 9), beside the files: the server sends them as they are (decision 039). The plugin
    // sees the server's bundle too, which nobody downloads: its own files are left out.
    compression({
      algorithms: [defineAlgorithm("brotliCompress", { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm("gzip", { level: 9 })],
      include: /\.(js|css|svg|json|webmanifest|txt|xml)$/,
      exclude: [/^index\.js$/, /^assets\/(server-build|services|prom-client|rolldown-runtime)-[\w-]+\.(js|css)$/],
      threshold: 0,
      skipIfLargerOrEqual: true,
    }),
  ],
}));
