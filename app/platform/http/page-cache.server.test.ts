import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { NONCE_PLACEHOLDER, createPageCache, type PageCacheOptions } from "./page-cache.server";
import { securityHeaders } from "./security-headers.server";

/** A page as React Router renders it for the cache: placeholder nonce, the token of the moment. */
const page = (body: string, token: string) => `<html><script nonce="${NONCE_PLACEHOLDER}"></script><input name="formToken" value="${token}">${body}</html>`;

type Answer = { status: number; headers: Record<string, string>; body: string };

function request(headers: Record<string, string> = {}, method = "GET", url = "/"): IncomingMessage {
  return { method, url, headers: { host: "example.test", ...headers } } as unknown as IncomingMessage;
}

/** Serves one request; the answer, or undefined when the cache left it to the full pipeline. */
async function serve(cache: ReturnType<typeof createPageCache>, req = request()): Promise<Answer | undefined> {
  let answer: Answer | undefined;
  const written: Buffer[] = [];
  const res = {
    destroyed: false,
    writeHead(status: number, flat: string[]) {
      const headers: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) headers[flat[i]!.toLowerCase()] = flat[i + 1]!;
      answer = { status, headers, body: "" };
    },
    write(piece: Buffer) {
      written.push(piece);
    },
    end(last?: Buffer) {
      if (last) written.push(last);
      const body = Buffer.concat(written);
      const encoding = answer?.headers["content-encoding"];
      if (answer && written.length) {
        expect(body.length, "Content-Length").toBe(Number(answer.headers["content-length"]));
        answer.body = (encoding === "gzip" ? gunzipSync(body) : encoding === "br" ? brotliDecompressSync(body) : body).toString();
      }
    },
  } as unknown as ServerResponse;
  return (await cache.serve(req, res)) ? answer : undefined;
}

/** A page cache over a fake database and renderer that the test drives. */
function setup(overrides: Partial<PageCacheOptions> = {}) {
  const state = { version: 1, data: "first", token: "1700000000.token-a", renders: 0, renderGate: undefined as Promise<void> | undefined };
  const cache = createPageCache({
    isCachedPage: (pathname) => pathname === "/",
    dataVersion: async () => state.version,
    originOf: () => "http://example.test",
    async render() {
      state.renders++;
      // The data is read when the render starts, as a loader does.
      const html = page(state.data, state.token);
      await state.renderGate;
      return { html, headers: new Headers({ "content-type": "text/html; charset=utf-8", vary: "Accept-Encoding" }) };
    },
    securityHeaders: securityHeaders({ dev: false, hsts: true }),
    perResponse: [async () => state.token],
    ...overrides,
  });
  return { cache, state };
}

describe("the page cache", () => {
  it("renders once per data version and fills in a fresh nonce and the current token on every answer", async () => {
    const { cache, state } = setup();
    const first = (await serve(cache))!;
    const second = (await serve(cache, request({ "accept-encoding": "gzip" })))!;
    expect(state.renders).toBe(1);
    for (const answer of [first, second]) {
      const nonce = /'nonce-([^']+)'/.exec(answer.headers["content-security-policy"]!)![1]!;
      expect(answer.body).toBe(page("first", "1700000000.token-a").replace(NONCE_PLACEHOLDER, nonce));
    }
    expect(second.headers["content-encoding"]).toBe("gzip");
    expect(first.headers["content-security-policy"]).not.toBe(second.headers["content-security-policy"]);

    state.token = "1700000001.token-b";
    expect((await serve(cache))!.body).toContain('value="1700000001.token-b"');
    expect(state.renders).toBe(1);

    state.version = 2;
    state.data = "second";
    expect((await serve(cache))!.body).toContain("second");
    expect(state.renders).toBe(2);
  });

  it("renders once for all the requests that arrive while it renders", async () => {
    const { cache, state } = setup();
    let open!: () => void;
    state.renderGate = new Promise((resolve) => (open = resolve));
    const answers = Array.from({ length: 10 }, () => serve(cache));
    await new Promise((resolve) => setImmediate(resolve));
    open();
    for (const answer of await Promise.all(answers)) expect(answer?.body).toContain("first");
    expect(state.renders).toBe(1);
  });

  it("does not give a request a render that read an older version than it did", async () => {
    const { cache, state } = setup();
    let open!: () => void;
    state.renderGate = new Promise((resolve) => (open = resolve));
    const early = serve(cache);
    await new Promise((resolve) => setImmediate(resolve));
    // A write lands while the first render is under way.
    state.version = 2;
    state.data = "second";
    state.renderGate = undefined;
    const late = await serve(cache);
    expect(late?.body).toContain("second");
    open();
    expect((await early)?.body).toContain("first");
    // The slower, older render did not replace the newer one.
    expect((await serve(cache))?.body).toContain("second");
    expect(state.renders).toBe(2);
  });

  it("renders again when the token changed during the render, so it never keeps one", async () => {
    let calls = 0;
    const { cache, state } = setup({
      // The second second starts between the first render's before and after.
      perResponse: [async () => (++calls <= 1 ? "1700000000.token-a" : "1700000001.token-b")],
    });
    state.token = "1700000001.token-b";
    expect((await serve(cache))!.body).toContain('value="1700000001.token-b"');
    expect(state.renders).toBe(2);
  });

  it.each([
    ["a POST", request({}, "POST")],
    ["another path", request({}, "GET", "/admin")],
    ["a cookie", request({ cookie: "session=1" })],
    ["credentials", request({ authorization: "Basic eDp5" })],
  ])("leaves %s to the full pipeline", async (_label, req) => {
    const { cache, state } = setup();
    expect(await serve(cache, req)).toBeUndefined();
    expect(state.renders).toBe(0);
  });

  it("leaves the request to the full pipeline when the database or the render fails, or the page sets a cookie", async () => {
    const down = setup({ dataVersion: () => Promise.reject(new Error("database down")) });
    expect(await serve(down.cache)).toBeUndefined();
    const failing = setup({ render: () => Promise.reject(new Error("render failed")) });
    expect(await serve(failing.cache)).toBeUndefined();
    const cookie = setup({
      render: async () => ({ html: "<html></html>", headers: new Headers({ "set-cookie": "flash=1" }) }),
    });
    expect(await serve(cookie.cache)).toBeUndefined();
  });

  it("serves a page whatever query string comes with it, rendered once, without the query", async () => {
    const rendered: string[] = [];
    const { cache, state } = setup({
      async render(url) {
        rendered.push(url);
        return { html: page("first", "1700000000.token-a"), headers: new Headers({ "content-type": "text/html; charset=utf-8" }) };
      },
    });
    const withoutNonce = (answer: Answer) => answer.body.replaceAll(/'nonce-([^']+)'/.exec(answer.headers["content-security-policy"]!)![1]!, "N");
    const plain = (await serve(cache))!;
    for (const url of ["/?utm_source=mail", "/?x=1", "/?x=2&y", "/?"]) {
      const answer = await serve(cache, request({}, "GET", url));
      expect(answer?.status, url).toBe(200);
      expect(withoutNonce(answer!)).toBe(withoutNonce(plain));
    }
    expect(rendered).toEqual(["http://example.test/"]);
    expect(state.renders).toBe(0);
  });

  it("answers in Brotli a browser that accepts it, once its form is made, and in gzip meanwhile", async () => {
    const { cache } = setup();
    const browser = request({ "accept-encoding": "gzip, deflate, br, zstd" });
    const encodings = new Set<string | undefined>();
    for (let tries = 0; tries < 200 && !encodings.has("br"); tries++) {
      const answer = (await serve(cache, browser))!;
      expect(answer.body).toContain("first");
      encodings.add(answer.headers["content-encoding"]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(encodings.has("br")).toBe(true);
    expect([...encodings].every((encoding) => encoding === "br" || encoding === "gzip")).toBe(true);
    expect((await serve(cache, request({ "accept-encoding": "gzip;q=1, br;q=0.5" })))!.headers["content-encoding"]).toBe("gzip");
  });

  it("answers HEAD with the headers of a GET and no body", async () => {
    const { cache } = setup();
    const get = (await serve(cache))!;
    const head = (await serve(cache, request({}, "HEAD")))!;
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
  });
});
