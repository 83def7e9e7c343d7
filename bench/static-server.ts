/**
 * The bench's "static /" reference (issue 6, point 6): a minimal node:http server,
 * no Express, that answers every request with one fixed response, the exact bytes
 * and headers the app sent for `GET /` (read from the files bench/run.ts wrote).
 *
 *   node bench/static-server.ts <body file> <headers JSON file>
 *
 * Listens on a free port of 127.0.0.1 and prints `listening <port>` on stdout.
 * Runs in its own process (bench/run.ts spawns it), so its CPU and RSS are its own.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const [bodyFile, headersFile] = process.argv.slice(2);
if (!bodyFile || !headersFile) {
  console.error("usage: node bench/static-server.ts <body file> <headers JSON file>");
  process.exit(2);
}
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, "utf8")) as Record<string, string | string[]>;
// The body is sent whole, so its length is known: no chunked encoding.
headers["content-length"] = String(body.length);

const server = createServer((request, response) => {
  // Drain any request body so keep-alive connections stay usable.
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
