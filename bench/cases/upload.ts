/**
 * The upload case (issue: "a 10 MB, 24-megapixel JPEG through the server's processing …
 * beside `sharp` doing the same work alone"): signed in, one upload at a time, taking
 * turns with bench/sharp-alone.ts running the same processImage in its own process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import sharp from "sharp";
import { ROOT, TARGETS } from "../lib/config.ts";
import { mb, readCpuSeconds, readProcStatus, resetPeakRss, round, settleRss, spread, type RssSampler, type Settled, type Spread } from "../lib/measure.ts";
import { adopt, isInterrupted } from "../lib/processes.ts";
import type { UploadImage } from "../upload-image.ts";

// One sign-in, by the bench: the password only has to satisfy the server's rules.
export const ADMIN = { email: "bench@example.com", password: `bench-${randomBytes(12).toString("hex")}` };

/** The session cookie (`name=value`) of a fresh sign-in. */
export async function signInAsAdmin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }).toString(),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!.trim())
    .find((pair) => /^(__Host-)?admin_session=./.test(pair));
  if (response.status !== 302 || !cookie) {
    throw new Error(`POST /admin/sign-in answered ${response.status}${cookie ? "" : " without a session cookie"}`);
  }
  return cookie;
}

type UploadAnswer = {
  status: number;
  ms: number;
  body: { url?: unknown; name?: unknown; width?: unknown; height?: unknown; error?: unknown };
};

/** One multipart POST to /api/admin/images, timed from the request's start to the whole answer. */
async function postImage(baseUrl: string, cookie: string, bytes: Uint8Array<ArrayBuffer>, filename: string): Promise<UploadAnswer> {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/jpeg" }), filename);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/admin/images`, {
    method: "POST",
    headers: { origin: baseUrl, cookie, accept: "application/json" },
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: UploadAnswer["body"];
  try {
    body = JSON.parse(text) as UploadAnswer["body"];
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: response.status, ms, body };
}

type AloneReport = {
  timesMs: number[];
  cpuMsPerRun: number;
  rssAfterImportMb: number;
  vmHwmMb: number;
  vmRssMb: number;
  output: { width: number; height: number; extension: string; files: number; bytes: number } | null;
};

/**
 * bench/sharp-alone.ts in its own process (its RSS is its own), paced: each
 * step() runs processImage once there and resolves when it is done, so its
 * runs can alternate with the server's uploads.
 */
class SharpAlone {
  private readonly proc: ChildProcess;
  private readonly lines: AsyncIterator<string>;
  private readonly closed: Promise<number | null>;
  private readonly output: string[] = [];
  private errors = "";

  constructor(nodeArgs: readonly string[], env: Record<string, string>, image: string, runs: number) {
    const script = path.join(ROOT, "bench", "sharp-alone.ts");
    this.proc = adopt(
      spawn(process.execPath, [...nodeArgs, script, `--image=${image}`, `--runs=${runs}`, "--warmup=1", "--paced"], {
        cwd: ROOT,
        env: { ...process.env, ...env, NODE_ENV: "production" },
        stdio: ["pipe", "pipe", "pipe"],
      }),
    );
    this.proc.stderr?.on("data", (chunk: Buffer) => (this.errors = (this.errors + chunk.toString()).slice(-5000)));
    this.closed = new Promise((resolve) => this.proc.once("close", (code) => resolve(code)));
    this.lines = createInterface({ input: this.proc.stdout! })[Symbol.asyncIterator]();
  }

  private async line(): Promise<string> {
    const next = await this.lines.next();
    // Killed by the SIGINT/SIGTERM handler, which ends this process: nothing to report.
    if (next.done && isInterrupted()) return new Promise<string>(() => {});
    if (next.done) throw new Error(`bench/sharp-alone.ts stopped early (code ${await this.closed}): ${this.errors}`);
    this.output.push(next.value);
    return next.value;
  }

  /** Loaded (the build imported, the image read). */
  async ready(): Promise<void> {
    await this.line();
  }

  async step(): Promise<void> {
    this.proc.stdin?.write("go\n");
    await this.line();
  }

  /** After the last step: the summary. */
  async finish(): Promise<AloneReport> {
    const summary = await this.line();
    const code = await this.closed;
    if (code !== 0) throw new Error(`bench/sharp-alone.ts exited with ${code}: ${this.errors}`);
    try {
      return JSON.parse(summary) as AloneReport;
    } catch {
      throw new Error(`bench/sharp-alone.ts printed no summary: ${this.output.join("\n").slice(-1000)} ${this.errors}`);
    }
  }
}

export type UploadResult = {
  case: "upload";
  label: string;
  image: UploadImage;
  uploads: number;
  expected: { width: number; height: number };
  server: Spread & {
    timesMs: number[];
    answers: { width: number; height: number }[];
    cpuMsPerUpload: number;
    /** max(sampled VmRSS, VmHWM since the reset) */
    peakRssMb: number;
    sampledPeakRssMb: number;
    /** VmHWM since the reset at the case's start; null when it could not be reset. */
    vmHwmMb: number | null;
    rssBeforeMb: number;
    /** The idle wait before the case: RSS when the load cases ended, after the wait, and how long it took. */
    settled: Settled;
    /** peakRssMb − rssBeforeMb: what the uploads added to what the server held when the case began. */
    riseMb: number;
    storedFiles: number;
    storedFilesExpected: number;
  };
  /** A 10 MB non-image (415 after the whole body is read): transfer + multipart + session check. */
  requestOverhead: Spread & { status: number };
  sharpAlone: Spread & AloneReport;
  /** server median / alone median: the target. */
  ratio: number;
  /** Server CPU time per upload / alone CPU time per run: less disturbed by other work on the machine. */
  cpuRatio: number;
  target: string;
  ratioOk: boolean;
  rssOk: boolean;
  ok: boolean;
  problem?: string;
};

export type UploadContext = {
  uploads: number;
  /** The server's output, for the report when it dies. */
  serverLog: () => string;
  baseUrl: string;
  pid: number;
  sampler: RssSampler;
  image: UploadImage;
  dataDir: string;
  aloneNodeArgs: readonly string[];
  aloneEnv: Record<string, string>;
  serverAlive: () => boolean;
  /** The footprint case's wait, when it already ran: not waited for again. */
  settled?: Settled;
};

export async function uploadCase(context: UploadContext): Promise<UploadResult | undefined> {
  const { baseUrl, pid, sampler, image, uploads } = context;
  const label = "POST /api/admin/images";
  const problems: string[] = [];
  const bytes = readFileSync(image.file);
  // Orientation 6: the stored 6000×4000 turns upright to 4000×6000, then fits 1920.
  const upright = image.orientation >= 5 ? { width: image.height, height: image.width } : { width: image.width, height: image.height };
  const scale = Math.min(1, 1920 / Math.max(upright.width, upright.height));
  const expected = { width: Math.round(upright.width * scale), height: Math.round(upright.height * scale) };

  process.stdout.write(`${label}: signing in… `);
  const cookie = await signInAsAdmin(baseUrl);

  const imagesDir = path.join(context.dataDir, "images");
  const countFiles = () => {
    try {
      return readdirSync(imagesDir).filter((name) => !name.startsWith(".")).length;
    } catch {
      return 0;
    }
  };
  const filesBefore = countFiles();
  // After the load cases V8 keeps its grown heap until the server has been
  // idle a while (its memory reducer then collects it: 250 → 130 MB within
  // a minute, measured). An admin uploads on such a server, not mid-burst:
  // wait (at most 90 s) until RSS has stopped falling for 10 s.
  const settled = context.settled ?? (await settleRss(pid));
  const rssBefore = readProcStatus(pid);
  const hwmReset = resetPeakRss(pid);
  sampler.resetCase();

  const answers: { width: number; height: number }[] = [];
  const times: number[] = [];
  let lastUrl: string | undefined;
  const check = (answer: UploadAnswer, which: string) => {
    const { width, height, url } = answer.body;
    if (answer.status !== 201 || typeof width !== "number" || typeof height !== "number" || typeof url !== "string") {
      problems.push(`${which} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      return false;
    }
    lastUrl = url;
    if (!(height > width)) problems.push(`${which} came back ${width}×${height}: not upright (EXIF orientation ${image.orientation} ignored?)`);
    else if (width !== expected.width || height !== expected.height)
      problems.push(`${which} came back ${width}×${height}, expected ${expected.width}×${expected.height}`);
    return true;
  };

  // processImage alone, in its own process, takes turns with the server: upload, run, upload, run…
  // so that other work on the machine weighs on both alike. Idle, each waits without using CPU.
  const alone = new SharpAlone(context.aloneNodeArgs, context.aloneEnv, image.file, uploads);
  await alone.ready();
  process.stdout.write("warm-up (1 upload + 1 alone)… ");
  const warm = await postImage(baseUrl, cookie, bytes, "IMG_0001.jpg");
  check(warm, "the warm-up upload");
  await alone.step();
  process.stdout.write(`measuring ${uploads} uploads, each followed by a processImage alone… `);
  let cpuSeconds = 0;
  for (let index = 0; index < uploads && !isInterrupted() && context.serverAlive(); index++) {
    const cpuBefore = readCpuSeconds(pid);
    const answer = await postImage(baseUrl, cookie, bytes, `IMG_${String(index + 2).padStart(4, "0")}.jpg`);
    cpuSeconds += readCpuSeconds(pid) - cpuBefore;
    if (check(answer, `upload ${index + 1}`)) {
      times.push(answer.ms);
      answers.push({ width: Number(answer.body.width), height: Number(answer.body.height) });
    }
    await alone.step();
  }
  sampler.sample();
  const after = readProcStatus(pid);
  if (isInterrupted()) return undefined;
  if (!context.serverAlive()) throw new Error(`The server died during ${label}. Its output:\n${context.serverLog().slice(-5000)}`);
  const aloneReport = await alone.finish();
  // The request without the image work, after the peak is read: the same 10 MB, random bytes that no sniffer takes for an image.
  const noise = randomBytes(image.bytes);
  noise.fill(0, 0, 1024);
  const overhead: number[] = [];
  let overheadStatus = 0;
  for (let index = 0; index < 3 && !isInterrupted(); index++) {
    const answer = await postImage(baseUrl, cookie, noise, "noise.jpg");
    overheadStatus = answer.status;
    overhead.push(answer.ms);
  }
  if (overheadStatus !== 415) problems.push(`the 10 MB non-image answered ${overheadStatus}, expected 415`);

  const server = spread(times);
  const aloneSpread = spread(aloneReport.timesMs);
  console.log(`medians ${server.medianMs} ms and ${aloneSpread.medianMs} ms`);
  if (aloneReport.output && (aloneReport.output.width !== expected.width || aloneReport.output.height !== expected.height)) {
    problems.push(`processImage alone made ${aloneReport.output.width}×${aloneReport.output.height}, expected ${expected.width}×${expected.height}`);
  }

  // What was stored: 7 files per upload (the main JPEG, AVIF + WebP at 3 widths), no metadata left.
  const storedFiles = countFiles() - filesBefore;
  const storedFilesExpected = (uploads + 1) * 7;
  if (storedFiles !== storedFilesExpected) problems.push(`${storedFiles} files stored for ${uploads + 1} uploads, expected ${storedFilesExpected}`);
  if (lastUrl) {
    const stored = await fetch(new URL(lastUrl, baseUrl));
    const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    if (!stored.ok) problems.push(`GET ${lastUrl} answered ${stored.status}`);
    else if (meta.exif || meta.orientation || meta.icc || meta.xmp)
      problems.push(
        `the stored image still has metadata (${["exif", "orientation", "icc", "xmp"].filter((key) => meta[key as keyof typeof meta]).join(", ")})`,
      );
  }

  const sampledPeakRssMb = mb(Math.max(sampler.casePeakKb, after?.rssKb ?? 0));
  const vmHwmMb = hwmReset && after ? mb(after.hwmKb) : null;
  const peakRssMb = Math.max(sampledPeakRssMb, vmHwmMb ?? 0);
  const ratio = round(server.medianMs / aloneSpread.medianMs, 2);
  const ok = problems.length === 0 && times.length === uploads;
  return {
    case: "upload",
    label,
    image: { ...image, file: path.relative(ROOT, image.file) },
    uploads,
    expected,
    server: {
      ...server,
      timesMs: times.map((ms) => round(ms)),
      answers,
      cpuMsPerUpload: round((cpuSeconds * 1000) / Math.max(1, times.length)),
      peakRssMb,
      sampledPeakRssMb,
      vmHwmMb,
      rssBeforeMb: rssBefore ? mb(rssBefore.rssKb) : NaN,
      settled,
      riseMb: rssBefore ? round(peakRssMb - mb(rssBefore.rssKb)) : NaN,
      storedFiles,
      storedFilesExpected,
    },
    requestOverhead: { ...spread(overhead), status: overheadStatus },
    sharpAlone: { ...aloneSpread, ...aloneReport },
    ratio,
    cpuRatio: round((cpuSeconds * 1000) / Math.max(1, times.length) / aloneReport.cpuMsPerRun, 2),
    target: `≤ ${TARGETS.uploadRatio}× alone, RSS ≤ ${TARGETS.uploadPeakRssMb} MB`,
    ratioOk: ratio <= TARGETS.uploadRatio,
    rssOk: peakRssMb <= TARGETS.uploadPeakRssMb,
    ok,
    ...(problems.length ? { problem: problems.join("; ") } : {}),
  };
}
