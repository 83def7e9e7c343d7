// Development entry: `npm run dev`. Vite serves the browser code with hot
// reload; the server module is loaded through Vite so edits apply on reload.
process.env.NODE_ENV ??= "development";
const { createServer } = await import("vite");
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const { startServer } = await vite.ssrLoadModule("./server/app.ts");
await startServer({ vite });
