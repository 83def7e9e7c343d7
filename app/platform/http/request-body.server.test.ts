import { describe, expect, it } from "vitest";
import { BodyError, readFormEntries, readFormFields, readJsonObject } from "./request-body.server";

const LIMIT = 1024;
/** The form's own message for a body that cannot be read as it. */
const UNREADABLE = "The form was not understood.";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/contact", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** A body with no Content-Length, arriving in pieces, as with chunked transfer encoding. */
function streamed(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function bodyErrorOf(promise: Promise<unknown>): Promise<BodyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BodyError) return error;
    throw error;
  }
  throw new Error("expected a BodyError");
}

describe("readJsonObject", () => {
  it("returns the object", async () => {
    const request = post(JSON.stringify({ name: "Ada" }), { "content-type": "application/json" });
    expect(await readJsonObject(request, LIMIT)).toEqual({ name: "Ada" });
  });

  it.each(["application/json; charset=utf-8", "Application/JSON", "application/vnd.api+json"])("accepts Content-Type %s", async (type) => {
    expect(await readJsonObject(post('{"a":"b"}', { "content-type": type }), LIMIT)).toEqual({ a: "b" });
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"])(
    "refuses Content-Type %s with 415",
    async (type) => {
      const error = await bodyErrorOf(readJsonObject(post('{"a":"b"}', { "content-type": type }), LIMIT));
      expect(error.status).toBe(415);
      expect(error.message).toBe("Content-Type must be application/json");
    },
  );

  it("refuses a missing Content-Type with 415", async () => {
    const error = await bodyErrorOf(readJsonObject(post(new TextEncoder().encode('{"a":"b"}')), LIMIT));
    expect(error.status).toBe(415);
  });

  it("refuses a declared Content-Length over the limit with 413 before the body arrives", async () => {
    // A body that never ends: only the declared length can have decided.
    const request = post(new ReadableStream(), { "content-type": "application/json", "content-length": String(LIMIT + 1) });
    const error = await bodyErrorOf(readJsonObject(request, LIMIT));
    expect(error.status).toBe(413);
    expect(error.message).toBe("Request body must be at most 1 KB");
  });

  it("refuses a streamed body over the limit with 413", async () => {
    const chunk = new TextEncoder().encode(`"${"x".repeat(600)}"`);
    const request = post(streamed(chunk, chunk), { "content-type": "application/json" });
    expect((await bodyErrorOf(readJsonObject(request, LIMIT))).status).toBe(413);
  });

  it("accepts a streamed body of exactly the limit", async () => {
    const json = JSON.stringify({ message: "x".repeat(LIMIT - 14) });
    expect(json).toHaveLength(LIMIT);
    const bytes = new TextEncoder().encode(json);
    const request = post(streamed(bytes.slice(0, 100), bytes.slice(100)), { "content-type": "application/json" });
    expect(await readJsonObject(request, LIMIT)).toEqual(JSON.parse(json));
  });

  it("refuses bytes that are not UTF-8 with 400", async () => {
    const request = post(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), { "content-type": "application/json" });
    const error = await bodyErrorOf(readJsonObject(request, LIMIT));
    expect(error.status).toBe(400);
    expect(error.message).toBe("Request body must be UTF-8 text");
  });

  it.each(["", "{", "{'name': 'Ada'}", '{"a":1,}', "undefined", "NaN"])("refuses malformed JSON %j with 400", async (body) => {
    const error = await bodyErrorOf(readJsonObject(post(body, { "content-type": "application/json" }), LIMIT));
    expect(error.status).toBe(400);
    expect(error.message).toBe("Request body must be valid JSON");
  });

  it.each(["[]", '[{"name":"Ada"}]', '"text"', "null", "42", "true"])("refuses JSON %s that is not an object with 400", async (body) => {
    const error = await bodyErrorOf(readJsonObject(post(body, { "content-type": "application/json" }), LIMIT));
    expect(error.status).toBe(400);
    expect(error.message).toBe("Request body must be a JSON object");
  });
});

describe("readFormFields", () => {
  it("reads an urlencoded form, decoding + and percent escapes", async () => {
    const request = post("name=Ada+Lovelace&email=ada%40example.com&message=Line+1%0ALine+2", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(await readFormFields(request, LIMIT, UNREADABLE)).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      message: "Line 1\nLine 2",
    });
  });

  it("keeps the first of duplicated fields", async () => {
    const request = post("name=first&name=second", { "content-type": "application/x-www-form-urlencoded" });
    expect(await readFormFields(request, LIMIT, UNREADABLE)).toEqual({ name: "first" });
  });

  it("keeps fields named like Object's own members as plain fields, the first of each", async () => {
    const request = post("constructor=a&__proto__=b&constructor=c&toString=d", { "content-type": "application/x-www-form-urlencoded" });
    const fields = await readFormFields(request, LIMIT, UNREADABLE);
    expect(Object.entries(fields)).toEqual([
      ["constructor", "a"],
      ["__proto__", "b"],
      ["toString", "d"],
    ]);
    expect(fields.intent).toBeUndefined();
  });

  it("reads a multipart form", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("message", "Crème brûlée");
    expect(await readFormFields(new Request("http://localhost/", { method: "POST", body: form }), LIMIT, UNREADABLE)).toEqual({
      name: "Ada",
      message: "Crème brûlée",
    });
  });

  it("refuses a file, even an empty one, with 400 and the form's message: no field of the form takes one", async () => {
    for (const file of [new Blob(["%PDF"], { type: "application/pdf" }), new Blob([])]) {
      const form = new FormData();
      form.set("name", "Ada");
      form.set("attachment", file, "cv.pdf");
      const error = await bodyErrorOf(readFormFields(new Request("http://localhost/", { method: "POST", body: form }), LIMIT, UNREADABLE));
      expect([error.status, error.message]).toEqual([400, UNREADABLE]);
    }
  });

  it.each([
    ["raw bytes that are not UTF-8", Buffer.concat([Buffer.from("name=Ada"), Buffer.from([0xff])])],
    ["an escape that is not UTF-8", Buffer.from("name=Ada%FF")],
    ["an escaped UTF-16 surrogate", Buffer.from("name=%ED%A0%80")],
    ["an escaped overlong '/'", Buffer.from("name=%C0%AF")],
    ["a character cut off after its first byte", Buffer.from("name=%C3&email=x")],
    ["a name that is not UTF-8", Buffer.from("na%FFme=Ada")],
  ])("refuses an urlencoded form with %s with 400 and the form's message", async (_label, body) => {
    const error = await bodyErrorOf(readFormFields(post(body, { "content-type": "application/x-www-form-urlencoded" }), LIMIT, UNREADABLE));
    expect([error.status, error.message]).toEqual([400, UNREADABLE]);
  });

  it("keeps percent signs that escape nothing, as browsers' forms never send them but people's scripts do", async () => {
    const request = post("message=100%+sure%2C+50%ZZ+off&name=%E2%82%AC5", { "content-type": "application/x-www-form-urlencoded" });
    expect(await readFormFields(request, LIMIT, UNREADABLE)).toEqual({ message: "100% sure, 50%ZZ off", name: "€5" });
  });

  it.each([
    ["a value that is not UTF-8", '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\xff\r\n--x--\r\n'],
    ["a name that is not UTF-8", '--x\r\nContent-Disposition: form-data; name="na\xffme"\r\n\r\nAda\r\n--x--\r\n'],
    ["LF-only line ends", '--x\nContent-Disposition: form-data; name="name"\n\nAda\n--x--\n'],
    ["no closing delimiter", '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda'],
    ["another boundary", '--y\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--y--\r\n'],
  ])("refuses a multipart form with %s with 400 and the form's message", async (_label, body) => {
    const request = post(Buffer.from(body, "latin1"), { "content-type": "multipart/form-data; boundary=x" });
    const error = await bodyErrorOf(readFormFields(request, LIMIT, UNREADABLE));
    expect([error.status, error.message]).toEqual([400, UNREADABLE]);
  });

  it("refuses a body whose stream breaks (the client gave up) with 400 and the form's message", async () => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("--x\r\nname=Ada"));
          controller.error(new Error("aborted"));
        },
      });
      const error = await bodyErrorOf(readFormFields(post(body, { "content-type": type }), LIMIT, UNREADABLE));
      expect([error.status, error.message], type).toEqual([400, UNREADABLE]);
    }
  });

  it("reads a multipart form whose last line end arrives on its own", async () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const body = streamed(bytes('--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--x--'), bytes("\r\n"));
    expect(await readFormFields(post(body, { "content-type": "multipart/form-data; boundary=x" }), LIMIT, UNREADABLE)).toEqual({ name: "Ada" });
  });

  it("refuses multipart garbage with 400", async () => {
    const request = post("this is not multipart", { "content-type": "multipart/form-data; boundary=xyz" });
    const error = await bodyErrorOf(readFormFields(request, LIMIT, UNREADABLE));
    expect(error.status).toBe(400);
  });

  it.each(["application/json", "text/plain"])("refuses %s with 415", async (type) => {
    expect((await bodyErrorOf(readFormFields(post("name=Ada", { "content-type": type }), LIMIT, UNREADABLE))).status).toBe(415);
  });

  it("refuses a form over the limit with 413", async () => {
    const request = post(`message=${"x".repeat(LIMIT)}`, { "content-type": "application/x-www-form-urlencoded" });
    expect((await bodyErrorOf(readFormFields(request, LIMIT, UNREADABLE))).status).toBe(413);
  });
});

describe("readFormEntries", () => {
  it("keeps every value of a repeated field, in order (checkboxes of one name)", async () => {
    const request = post("intent=bulk-delete&ids=a&ids=b&ids=a", { "content-type": "application/x-www-form-urlencoded" });
    expect(await readFormEntries(request, LIMIT, UNREADABLE)).toEqual([
      ["intent", "bulk-delete"],
      ["ids", "a"],
      ["ids", "b"],
      ["ids", "a"],
    ]);
  });

  it("reads repeats from a multipart form too", async () => {
    const form = new FormData();
    form.append("ids", "a");
    form.append("ids", "b");
    expect(await readFormEntries(new Request("http://localhost/", { method: "POST", body: form }), LIMIT, UNREADABLE)).toEqual([
      ["ids", "a"],
      ["ids", "b"],
    ]);
  });

  it("refuses what readFormFields refuses", async () => {
    expect((await bodyErrorOf(readFormEntries(post("ids=a", { "content-type": "text/plain" }), LIMIT, UNREADABLE))).status).toBe(415);
    const request = post(`ids=${"x".repeat(LIMIT)}`, { "content-type": "application/x-www-form-urlencoded" });
    expect((await bodyErrorOf(readFormEntries(request, LIMIT, UNREADABLE))).status).toBe(413);
  });
});
