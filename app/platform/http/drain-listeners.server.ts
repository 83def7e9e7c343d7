import type { NextFunction, Request, Response } from "express";

type Listener = (...args: unknown[]) => void;

/**
 * Waiting for "drain" with `once` on a compressed response, without leaving a
 * listener behind each time (decision 074).
 *
 * The compression middleware forwards `res.on("drain")` to its zlib stream but
 * leaves `removeListener`/`off` on the response (expressjs/compression#135 and
 * #152, still open). React Router waits for a full buffer with `once("drain")`
 * then `off`, so each wait of a long download left one listener on the stream:
 * a leak that grows with the file, and Node's MaxListenersExceededWarning after
 * the tenth. Installed right after compression: `once("drain")` callbacks are
 * kept here and called by the one listener this adds; `off` removes them here.
 * Every other event, and `on("drain")`, are left as they were.
 */
export function drainWaitsKeptHere(_req: Request, res: Response, next: NextFunction): void {
  const waiting: Listener[] = [];
  let listening = false;
  const on = res.on;
  const once = res.once;
  const removeListener = res.removeListener;
  const callWaiting = () => {
    for (const listener of waiting.splice(0)) listener();
  };
  res.once = function onceKeptHere(this: Response, event: string | symbol, listener: Listener) {
    if (event !== "drain") return once.call(this, event, listener);
    if (!listening) {
      listening = true;
      on.call(this, "drain", callWaiting);
    }
    waiting.push(listener);
    return this;
  } as Response["once"];
  res.off = res.removeListener = function removeKeptHere(this: Response, event: string | symbol, listener: Listener) {
    if (event === "drain") {
      const at = waiting.indexOf(listener);
      if (at !== -1) {
        waiting.splice(at, 1);
        return this;
      }
    }
    return removeListener.call(this, event, listener);
  } as Response["removeListener"];
  next();
}
