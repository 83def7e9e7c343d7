import { createHash, hkdfSync } from "node:crypto";
import fs, { type FileHandle } from "node:fs/promises";

/**
 * The files of a backup, written and read in a stream, either as they are or
 * sealed with BACKUP_KEY: libsodium's secretstream (XChaCha20-Poly1305 in
 * chunks of 64 KiB, each authenticated, with the chunk's place in the stream
 * and a final tag bound in, so a chunk changed, dropped, repeated, moved or
 * cut off at the end is refused). Each chunk also carries what the file is
 * (the backup's id and the file's name, as associated data), so a file cannot
 * be passed off as another, nor one of another backup as this one's. Whoever
 * holds the key wrote the file; nobody else could (decision 040).
 *
 * A reader always checks the content against the size and SHA-256 the
 * backup's manifest gives: a chunk is handed on only once it authenticated,
 * and the last check comes after the last chunk, so a caller that writes as
 * it reads (a restore, in one transaction) must not commit before the end.
 */
export class SealedFileError extends Error {
  override name = "SealedFileError";
}

/** Plain bytes per chunk. */
const CHUNK = 64 * 1024;
const KEY_INFO = "property-site-backup secretstream xchacha20poly1305";
const ID_INFO = "property-site-backup key id";

type Sodium = typeof import("libsodium-wrappers").default;
let loaded: Promise<Sodium> | undefined;
/** Loaded on the first use: only backup commands need it, never the server. */
function sodium(): Promise<Sodium> {
  loaded ??= import("libsodium-wrappers").then(async ({ default: library }) => {
    await library.ready;
    return library;
  });
  return loaded;
}

/** The secret BACKUP_KEY holds (32 bytes), as the cipher uses it, and a name for it that gives nothing of it away. */
export type SealingKey = { key: Uint8Array; id: string };

export function sealingKey(secret: Uint8Array): SealingKey {
  // Two keys from one secret (HKDF-SHA-256): the cipher's, and the one the id is made of.
  const derive = (info: string) => new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), info, 32));
  return { key: derive(KEY_INFO), id: Buffer.from(derive(ID_INFO).subarray(0, 8)).toString("hex") };
}

/** Sealing of one file: the key, and what the file is (bound into every chunk). */
export type Seal = { key: SealingKey; label: string };

export type Digest = { bytes: number; sha256: string };

const encoder = new TextEncoder();

/**
 * Writes `file` (which must not exist; 0600) in a stream, sealed when `seal`
 * is given. `finish` says the size and SHA-256 of what was written (before
 * sealing: the manifest describes the content).
 */
export async function createBackupFile(file: string, seal: Seal | undefined) {
  const handle = await fs.open(file, "wx", 0o600);
  const hash = createHash("sha256");
  let bytes = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const library = seal ? await sodium() : undefined;
  const stream = library && seal ? library.crypto_secretstream_xchacha20poly1305_init_push(seal.key.key) : undefined;
  if (stream) await handle.write(stream.header);

  /** Writes every whole chunk pending; with `final`, what is left too, as the final chunk (empty when nothing is). */
  const flush = async (final: boolean) => {
    const whole = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    let offset = 0;
    for (; whole.length - offset >= CHUNK; offset += CHUNK) await put(whole.subarray(offset, offset + CHUNK), false);
    const rest = whole.subarray(offset);
    if (final) await put(rest, true);
    pending = final || rest.length === 0 ? [] : [rest];
    pendingBytes = final ? 0 : rest.length;
  };
  const put = async (part: Uint8Array, last: boolean) => {
    if (!library || !stream || !seal) {
      if (part.length > 0) await handle.write(part);
      return;
    }
    const tag = last ? library.crypto_secretstream_xchacha20poly1305_TAG_FINAL : library.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
    await handle.write(library.crypto_secretstream_xchacha20poly1305_push(stream.state, part, seal.label, tag));
  };

  return {
    async write(data: Uint8Array | string): Promise<void> {
      const chunk = typeof data === "string" ? encoder.encode(data) : data;
      hash.update(chunk);
      bytes += chunk.length;
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK) await flush(false);
    },
    /** Writes what is left (the final chunk), flushes the file to disk and closes it. */
    async finish(): Promise<Digest> {
      try {
        await flush(true);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { bytes, sha256: hash.digest("hex") };
    },
    /** Closes the file after a failure (the caller removes the half-made backup). */
    async abort(): Promise<void> {
      await handle.close().catch(() => {});
    },
  };
}

/** Writes a whole small file (an image, already in memory) as createBackupFile does. */
export async function writeBackupFile(file: string, data: Uint8Array, seal: Seal | undefined): Promise<Digest> {
  const writer = await createBackupFile(file, seal);
  try {
    await writer.write(data);
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return writer.finish();
}

/**
 * Reads `file` as its content, chunk by chunk: with `seal`, each chunk only
 * once it authenticated. Throws SealedFileError (naming `label`) when the file
 * was changed, cut short or lengthened, or its content is not `expected`.
 */
export async function* readBackupFile(file: string, label: string, expected: Digest, seal: Seal | undefined): AsyncGenerator<Uint8Array> {
  const hash = createHash("sha256");
  let bytes = 0;
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SealedFileError(`${label} is missing.`);
    throw new SealedFileError(`${label} cannot be read: ${(error as Error).message}`);
  }
  const changed = () => new SealedFileError(`${label} does not match its checksum: it was changed or damaged.`);
  const forged = () =>
    new SealedFileError(`${label} does not authenticate with BACKUP_KEY: it was changed or damaged since it was written, or it is not this backup's.`);
  try {
    const library = seal ? await sodium() : undefined;
    const sealedChunk = library ? CHUNK + library.crypto_secretstream_xchacha20poly1305_ABYTES : CHUNK;
    // One byte more than a chunk: a sealed file must end right after its final chunk.
    const buffer = Buffer.alloc(sealedChunk + 1);
    const readExactly = async (length: number): Promise<Buffer> => {
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    };
    const take = (content: Uint8Array) => {
      hash.update(content);
      bytes += content.length;
      if (bytes > expected.bytes) throw changed();
    };

    if (library && seal) {
      const header = Buffer.from(await readExactly(library.crypto_secretstream_xchacha20poly1305_HEADERBYTES));
      if (header.length !== library.crypto_secretstream_xchacha20poly1305_HEADERBYTES) throw forged();
      const state = library.crypto_secretstream_xchacha20poly1305_init_pull(header, seal.key.key);
      for (;;) {
        const chunk = await readExactly(sealedChunk);
        if (chunk.length === 0) throw forged(); // cut short: no final chunk
        const opened = library.crypto_secretstream_xchacha20poly1305_pull(state, chunk, seal.label);
        if (!opened) throw forged();
        const final = opened.tag === library.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
        if (!final && chunk.length !== sealedChunk) throw forged();
        if (final && (await readExactly(1)).length > 0) throw forged(); // something after the end
        take(opened.message);
        if (opened.message.length > 0) yield opened.message;
        if (final) break;
      }
    } else {
      for (;;) {
        const chunk = await readExactly(CHUNK);
        if (chunk.length === 0) break;
        const content = Uint8Array.from(chunk);
        take(content);
        yield content;
      }
    }
    if (bytes !== expected.bytes || hash.digest("hex") !== expected.sha256) throw changed();
  } finally {
    await handle.close();
  }
}

/** A whole backup file's content, in memory (an image). */
export async function readWholeBackupFile(file: string, label: string, expected: Digest, seal: Seal | undefined): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readBackupFile(file, label, expected, seal)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Seals a small text (the manifest) whole: header and chunks, as a file would be. */
export async function sealText(text: string, seal: Seal): Promise<Uint8Array> {
  const library = await sodium();
  const { state, header } = library.crypto_secretstream_xchacha20poly1305_init_push(seal.key.key);
  const content = encoder.encode(text);
  const parts: Uint8Array[] = [header];
  for (let offset = 0; ; offset += CHUNK) {
    const last = offset + CHUNK >= content.length;
    const tag = last ? library.crypto_secretstream_xchacha20poly1305_TAG_FINAL : library.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
    parts.push(library.crypto_secretstream_xchacha20poly1305_push(state, content.subarray(offset, offset + CHUNK), seal.label, tag));
    if (last) break;
  }
  return Buffer.concat(parts);
}

/** Opens what sealText sealed; undefined when it does not authenticate. */
export async function openText(sealed: Uint8Array, seal: Seal): Promise<string | undefined> {
  const library = await sodium();
  const headerBytes = library.crypto_secretstream_xchacha20poly1305_HEADERBYTES;
  const sealedChunk = CHUNK + library.crypto_secretstream_xchacha20poly1305_ABYTES;
  if (sealed.length < headerBytes + library.crypto_secretstream_xchacha20poly1305_ABYTES) return undefined;
  const state = library.crypto_secretstream_xchacha20poly1305_init_pull(sealed.subarray(0, headerBytes), seal.key.key);
  const parts: Uint8Array[] = [];
  for (let offset = headerBytes; offset < sealed.length; offset += sealedChunk) {
    const opened = library.crypto_secretstream_xchacha20poly1305_pull(state, sealed.subarray(offset, offset + sealedChunk), seal.label);
    if (!opened) return undefined;
    const final = opened.tag === library.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
    if (final !== offset + sealedChunk >= sealed.length) return undefined; // final only at the end, and the end only final
    parts.push(opened.message);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(parts));
  } catch {
    return undefined;
  }
}
