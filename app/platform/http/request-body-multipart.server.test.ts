import { describe, expect, it, vi } from "vitest";
import { BodyError, readMultipartForm } from "./request-body.server";

const LIMITS = {
  fileFields: ["before", "after"],
  maxFileBytes: 1000,
  fileTooLarge: "File size must be less than 10MB",
  maxFieldBytes: 4096,
  unreadable: "The form was not understood.",
};

function formRequest(form: FormData): Request {
  return new Request("http://localhost/admin", { method: "POST", body: form });
}

async function refusal(promise: Promise<unknown>): Promise<BodyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BodyError) return error;
    throw error;
  }
  throw new Error("expected a BodyError");
}

describe("readMultipartForm", () => {
  it("returns the fields and the files of the named fields", async () => {
    const form = new FormData();
    form.set("title", "Loft");
    form.set("before", new File([new Uint8Array(10).fill(7)], "a.jpg", { type: "image/jpeg" }));
    const { fields, files } = await readMultipartForm(formRequest(form), LIMITS);
    expect(fields).toEqual({ title: "Loft" });
    expect(files.before?.bytes).toEqual(Buffer.alloc(10, 7));
    expect(files.before?.filename).toBe("a.jpg");
  });

  it("ignores a file input left empty (the browser still sends a part for it)", async () => {
    const form = new FormData();
    form.set("before_image_url", "/images/x.jpg");
    form.set("before", new File([], "", { type: "application/octet-stream" }));
    const { fields, files } = await readMultipartForm(formRequest(form), LIMITS);
    expect(fields).toEqual({ before_image_url: "/images/x.jpg" });
    expect(files).toEqual({});
  });

  it("accepts a file one byte under the cap and refuses one of exactly the cap with 413", async () => {
    const under = new FormData();
    under.set("before", new File([new Uint8Array(999)], "a.jpg"));
    expect((await readMultipartForm(formRequest(under), LIMITS)).files.before?.bytes.length).toBe(999);

    const at = new FormData();
    at.set("before", new File([new Uint8Array(1000)], "a.jpg"));
    const error = await refusal(readMultipartForm(formRequest(at), LIMITS));
    expect([error.status, error.message]).toEqual([413, "File size must be less than 10MB"]);
  });

  it("refuses a file in a field it was not asked for, and a second file for one field", async () => {
    const other = new FormData();
    other.set("avatar", new File([new Uint8Array(5)], "a.jpg"));
    const error = await refusal(readMultipartForm(formRequest(other), LIMITS));
    expect([error.status, error.message]).toEqual([400, LIMITS.unreadable]);

    const two = new FormData();
    two.append("before", new File([new Uint8Array(5)], "a.jpg"));
    two.append("before", new File([new Uint8Array(5)], "b.jpg"));
    expect((await refusal(readMultipartForm(formRequest(two), LIMITS))).message).toBe("Too many files");
  });

  it("refuses a body that is not multipart, and a multipart body cut short", async () => {
    const json = new Request("http://localhost/admin", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await refusal(readMultipartForm(json, LIMITS))).status).toBe(415);

    const cut = new Request("http://localhost/admin", {
      method: "POST",
      body: '--x\r\nContent-Disposition: form-data; name="before"; filename="a.jpg"\r\n\r\nabc',
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    const error = await refusal(readMultipartForm(cut, LIMITS));
    expect([error.status, error.message]).toEqual([400, LIMITS.unreadable]);
  });

  it("keeps a file named in RFC 8187 form without decoding the name, even in a charset nobody knows, and says nothing on the console", async () => {
    const warn = vi.spyOn(console, "warn");
    const named = (charset: string) =>
      new Request("http://localhost/admin", {
        method: "POST",
        body: `--x\r\nContent-Disposition: form-data; name="before"; filename*=${charset}''a%20photo.jpg\r\nContent-Type: image/jpeg\r\n\r\nabc\r\n--x--\r\n`,
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
    try {
      for (const charset of ["utf-8", "x-no-such-charset"]) {
        const { files } = await readMultipartForm(named(charset), LIMITS);
        expect(files.before?.bytes, charset).toEqual(Buffer.from("abc"));
      }
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a streamed body with no length as soon as it passes the cap, even one that never makes a part", async () => {
    // 2 files × 1000 + 4096 + 64 KB of slack: anything past that is refused, whatever it is.
    const chunk = new Uint8Array(16 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Endless: only the reader's refusal stops it.
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = new Request("http://localhost/admin", {
      method: "POST",
      body,
      duplex: "half",
      headers: { "content-type": "multipart/form-data; boundary=never-sent" },
    } as RequestInit);
    const error = await refusal(readMultipartForm(streamed, LIMITS));
    // Refused as malformed or as too large, but refused: never read until the request times out.
    expect([400, 413]).toContain(error.status);
    expect(sent).toBeLessThan(200 * 1024);
  });

  it("keeps fields named like Object's own members as plain fields", async () => {
    const form = new FormData();
    form.set("__proto__", "a");
    form.set("constructor", "b");
    form.set("toString", "c");
    const { fields } = await readMultipartForm(formRequest(form), LIMITS);
    expect(Object.entries(fields)).toEqual([
      ["__proto__", "a"],
      ["constructor", "b"],
      ["toString", "c"],
    ]);
  });
});
