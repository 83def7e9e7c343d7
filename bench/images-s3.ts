/**
 * GET /images/<name> with the images in S3 (decision 034): served through the
 * app, or answered with a redirect to the bucket. Needs the production build
 * and an S3 server (scripts/test-s3.sh start prints the S3_* variables):
 *
 *   npm run build && eval "$(scripts/test-s3.sh start)" && npm run bench:images
 *   npm run bench:images -- --duration=5 --connections=10
 *
 * Puts one noisy 960 × 640 JPEG (about 100 KB, the size of a gallery copy) in the
 * bucket (public-read, as a redirect to a public URL needs) and in a DATA_DIR,
 * recorded in each instance's images table as an upload would be,
 * starts the app twice (disk, S3) and drives with autocannon, one after the other:
 *   app, disk         GET /images/<name> from DATA_DIR/images (today's default)
 *   app, S3           GET /images/<name> through the app from the bucket
 *   redirect leg 1    what a 302 would cost the app: the same Express pipeline
 *                     answering without touching storage (a name it refuses)
 *   never uploaded    a name of the right shape nobody uploaded: 404 from the
 *                     images table, without a request to the bucket
 *   redirect leg 2    GET of the object straight from the S3 server
 * A redirect costs the browser both legs in sequence, and a second connection
 * to another origin. Prints requests/s, p50 and p99 latency and MB/s of each.
 * Loopback only, bounded in time; removes what it put.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { DatabaseSync } from "node:sqlite";
import path from "node:path";
import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import autocannon from "autocannon";
import sharp from "sharp";
import { startAppServer, startCommand } from "./lib/server.ts";
import { stopProcess } from "./lib/processes.ts";

const argument = (name: string, fallback: number) => {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const duration = argument("duration", 5);
const connections = argument("connections", 10);

const { S3_BUCKET, S3_ENDPOINT, S3_REGION = "us-east-1", S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE } = process.env;
if (!S3_BUCKET || !S3_ENDPOINT || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) {
  console.error("Set S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (scripts/test-s3.sh start prints them).");
  process.exit(2);
}
if (!/^(https?:\/\/)(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\/?$/.test(S3_ENDPOINT)) {
  console.error("The bench drives the S3 server with load: S3_ENDPOINT must be on loopback.");
  process.exit(2);
}

const image = await sharp({ create: { width: 960, height: 640, channels: 3, background: "#888888", noise: { type: "gaussian", mean: 128, sigma: 20 } } })
  .jpeg({ quality: 60 })
  .toBuffer();
const name = `${String(Date.now()).padStart(13, "0")}-benchimage01.jpg`;

const client = new S3Client({
  endpoint: S3_ENDPOINT,
  region: S3_REGION,
  forcePathStyle: /^(true|1|yes|on)$/i.test(S3_FORCE_PATH_STYLE ?? ""),
  credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
  requestChecksumCalculation: "WHEN_REQUIRED",
});
await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: name, Body: image, ContentType: "image/jpeg", ACL: "public-read" }));
const directUrl = `${S3_ENDPOINT.replace(/\/$/, "")}/${S3_BUCKET}/${name}`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-images-"));
mkdirSync(path.join(dataDir, "disk", "images"), { recursive: true });
writeFileSync(path.join(dataDir, "disk", "images", name), image);
mkdirSync(path.join(dataDir, "s3"));

const start = startCommand();
const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...start.env, NODE_ENV: "production", HOST: "127.0.0.1" };
const disk = await startAppServer(start.flags, (port) => ({ ...base, PORT: String(port), DATA_DIR: path.join(dataDir, "disk") }), {
  what: "The app on disk",
});
const s3 = await startAppServer(
  start.flags,
  (port) => ({
    ...base,
    PORT: String(port),
    DATA_DIR: path.join(dataDir, "s3"),
    S3_BUCKET,
    S3_ENDPOINT,
    S3_REGION,
    S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE: S3_FORCE_PATH_STYLE ?? "",
  }),
  { what: "The app on S3" },
);

// The app serves only the files it recorded (decision 041): record the image as an upload does, in each instance's database.
for (const instance of ["disk", "s3"]) {
  const database = new DatabaseSync(path.join(dataDir, instance, "app.sqlite"));
  database
    .prepare("INSERT INTO images (name, content_type, width, height, bytes, variants, created_at) VALUES (?, 'image/jpeg', ?, ?, ?, '[]', ?)")
    .run(name, 960, 640, image.length, new Date().toISOString());
  database.close();
}

type Row = { case: string; url: string; requestsPerSecond: number; p50: number; p99: number; mbPerSecond: number; non2xx: number };
const rows: Row[] = [];
async function measure(label: string, url: string) {
  await autocannon({ url, connections, duration: 1 }); // warm-up
  const result = await autocannon({ url, connections, duration });
  rows.push({
    case: label,
    url,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mbPerSecond: Math.round((result.throughput.average / 1e6) * 10) / 10,
    non2xx: result.non2xx,
  });
}

try {
  for (const [label, url] of [
    ["app, disk", `${disk.url}/images/${name}`],
    ["app, S3", `${s3.url}/images/${name}`],
    ["redirect leg 1 (app answers without storage)", `${s3.url}/images/not-an-image.jpg`],
    // A name of the right shape that was never uploaded: 404 from the images table, the bucket not asked.
    ["never uploaded, S3 (404 from our table)", `${s3.url}/images/${name.replace("benchimage01", "neveruploade")}`],
    ["redirect leg 2 (S3 server directly)", directUrl],
  ] as const) {
    await measure(label, url);
  }
} finally {
  await Promise.all([stopProcess(disk.proc, 10_000), stopProcess(s3.proc, 10_000)]);
  await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: name }));
  client.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `GET of one ${Math.round(image.length / 1024)} KB image, ${connections} connections, ${duration} s each, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
);
console.log(["case".padEnd(46), "req/s".padStart(7), "p50 ms".padStart(7), "p99 ms".padStart(7), "MB/s".padStart(7), "non-2xx".padStart(8)].join(" "));
for (const row of rows) {
  console.log(
    [
      row.case.padEnd(46),
      String(row.requestsPerSecond).padStart(7),
      String(row.p50).padStart(7),
      String(row.p99).padStart(7),
      String(row.mbPerSecond).padStart(7),
      String(row.non2xx).padStart(8),
    ].join(" "),
  );
}
