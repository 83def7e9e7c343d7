import http from "node:http";
import net from "node:net";

export type RawResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
};

export type RawRequestOptions = {
  method?: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  /** The body as pieces: with no Content-Length header they go out chunked. */
  body?: Buffer | string | Array<Buffer | string>;
};

/**
 * One request on its own connection with node:http, for what fetch will not
 * send: no Content-Type, chunked bodies, raw bytes, odd headers. A server may
 * answer before it has read the whole body and close the connection; the
 * answer counts, a write error after it does not.
 */
export function rawRequest(port: number, options: RawRequestOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      method: options.method ?? "POST",
      path: options.path,
      headers: options.headers,
      agent: false,
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode!, headers: response.headers, body, text: body.toString("utf8") });
      });
      response.on("error", reject);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pieces = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const piece of pieces) request.write(piece);
    request.end();
  });
}

/**
 * Sends bytes exactly as given on a new TCP connection, for requests node:http
 * would refuse to produce, and returns the status line's code once the server
 * closes the connection (0 when it closed without answering). The request
 * should ask for `Connection: close` or be one the server must refuse. With
 * `giveUp`, the client closes its side right after sending, as a client that
 * gives up half-way does; Node then drops the request and may not answer.
 */
export function rawExchange(port: number, bytes: Buffer | string, options: { giveUp?: boolean } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    socket.setEncoding("latin1");
    socket.setTimeout(20_000, () => {
      socket.destroy();
      reject(new Error("no answer and the connection stayed open for 20 s"));
    });
    socket.on("data", (text: string) => {
      response += text;
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") return;
      reject(error);
    });
    socket.on("close", () => {
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(response);
      resolve({ status: match ? Number(match[1]) : 0, text: response });
    });
    socket.write(bytes, () => {
      if (options.giveUp) socket.end();
    });
  });
}

/** True once nothing accepts connections on the port any more. */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

export type HeldRequest = {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<{ status: number; text: string }>;
};

/**
 * A POST that is in flight for as long as the test likes: the server has
 * answered its `Expect: 100-continue` (so it is handling the request) and
 * has part of the body; `finish` sends the rest. On a connection of its own.
 */
export async function holdRequest(port: number, path: string, body: string, contentType = "application/json"): Promise<HeldRequest> {
  const request = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path,
    agent: false,
    headers: { "content-type": contentType, "content-length": Buffer.byteLength(body), expect: "100-continue" },
  });
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on("response", (incoming) => {
      let text = "";
      incoming.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode!, text }));
    });
    request.on("error", reject);
  });
  // Read before the test finishes the request: a failure surfaces there, not as an unhandled rejection.
  response.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    request.once("continue", resolve);
    request.once("error", reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return {
    finish() {
      request.end(body.slice(half));
      return response;
    },
  };
}
