import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import type { ImageStorage } from "~/platform/storage/storage.server";
import type { Log } from "~/platform/observe/log.server";

/**
 * GET/HEAD /images/<name>: images, their copies, and documents. The name must be one the bucket hands out (no
 * slashes, no dots but the extension's, no encoded tricks: Express decodes
 * the parameter before we check it), and one the site recorded (`images`):
 * anything else is a 404 before the bucket is asked. The file is opened
 * without following symlinks. Names are never reused, so responses are immutable.
 */
export function serveImage({ storage, log, isRecorded }: { storage: ImageStorage; log: Pick<Log, "error">; isRecorded: (name: string) => Promise<boolean> }) {
  return async (req: Request, res: Response) => {
    const name = String(req.params.name ?? "");
    const notFound = () => res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Image not found");
    let recorded: boolean;
    try {
      recorded = await isRecorded(name);
    } catch (error) {
      // The database is down: the bucket still knows its files, so it answers as before the lookup existed.
      log.error({ err: error }, `Could not look up the image ${name}; asking the bucket`);
      recorded = true;
    }
    if (!recorded) {
      notFound();
      return;
    }
    let object;
    try {
      object = await storage.open(name);
    } catch (error) {
      log.error({ err: error }, `Could not open the image ${name}`);
      res.status(503).set("Cache-Control", "no-store").type("text/plain").send("Image unavailable");
      return;
    }
    if (!object) {
      notFound();
      return;
    }
    res.set({
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Last-Modified": object.modifiedAt.toUTCString(),
      // Served as images only, never as a page (a crafted file cannot run script here). A PDF
      // opens in the browser's own viewer, which a sandbox would block (Chromium 413851):
      // it gets no sandbox but nothing else, and nosniff with its type keeps it a PDF.
      "Content-Security-Policy":
        object.contentType === "application/pdf"
          ? "default-src 'none'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'none'"
          : "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Content-Type-Options": "nosniff",
      // A document (the certificate) opens in the browser's viewer, saved under its own safe name (decision 030).
      ...(object.contentType === "application/pdf" ? { "Content-Disposition": `inline; filename="${name}"` } : {}),
    });
    if (req.method === "HEAD") {
      await object.close();
      res.end();
      return;
    }
    const body = object.stream();
    try {
      await pipeline(body, res);
    } catch {
      // The client went away. If it left before the file was open, pipeline()
      // refuses to start (ERR_STREAM_UNABLE_TO_PIPE) and leaves the stream, and
      // the file, open: close it here, not at garbage collection (DEP0137).
      body.destroy();
    }
  };
}
