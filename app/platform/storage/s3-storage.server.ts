import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { LIST_DEFAULTS, StorageError, type ImageStorage, type ListOptions, type ObjectNaming, type OpenedObject, type StoredObject } from "./storage.server";

type Sdk = typeof import("@aws-sdk/client-s3");

/** Where the bucket is and how to reach it (S3_* settings, read in config/env.server.ts). */
export type S3Config = {
  bucket: string;
  /** S3_ENDPOINT; undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  /** S3_REGION, us-east-1 when unset (what most S3-compatible servers expect). */
  region: string;
  /** S3_ACCESS_KEY_ID + S3_SECRET_ACCESS_KEY; undefined: the SDK's own chain (AWS_* variables, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** S3_FORCE_PATH_STYLE: http://host/bucket/name instead of http://bucket.host/name. */
  forcePathStyle: boolean;
};

/**
 * The images bucket in S3 or an S3-compatible store (decision 034). The same
 * contract as LocalDiskStorage: bare names the images module hands out and
 * nothing else, never an overwrite (`If-None-Match: *`, which the store
 * checks, so two instances cannot both write one name), listing by name.
 * `@aws-sdk/client-s3` is imported on first use, like `pg`: a site that keeps
 * its images on disk never loads it.
 */
export class S3ImageStorage implements ImageStorage {
  readonly description: string;
  private loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(
    private readonly config: S3Config,
    private readonly naming: ObjectNaming,
  ) {
    const where = config.endpoint ? ` at ${new URL(config.endpoint).host}` : ` (AWS ${config.region})`;
    this.description = `S3 bucket ${config.bucket}${where}`;
  }

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.config.region,
        ...(this.config.endpoint ? { endpoint: this.config.endpoint } : {}),
        ...(this.config.credentials ? { credentials: this.config.credentials } : {}),
        forcePathStyle: this.config.forcePathStyle,
        // Checksums only when an operation requires one: several S3-compatible
        // stores refuse the newer default trailing checksums on PutObject.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
      }),
    }));
    return this.loaded;
  }

  private check(name: string): string {
    if (!this.naming.isValidName(name)) throw new StorageError(`Not an image name: ${JSON.stringify(name)}`);
    return name;
  }

  async put(name: string, data: Uint8Array, options: { contentType: string }): Promise<void> {
    this.check(name);
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.config.bucket,
          Key: name,
          Body: data,
          ContentLength: data.byteLength,
          ContentType: options.contentType,
          // What /images/<name> answers with, so a CDN in front of the bucket says the same.
          CacheControl: "public, max-age=31536000, immutable",
          IfNoneMatch: "*",
        }),
      );
    } catch (error) {
      // 412: the name exists. 409: another write of the same name is under way.
      const status = statusOf(error);
      if (status === 412 || status === 409) throw new StorageError(`An image named ${name} already exists`);
      throw error;
    }
  }

  async delete(name: string): Promise<boolean> {
    this.check(name);
    const { sdk, client } = await this.connect();
    // S3 answers a delete the same whether the object was there or not: ask first.
    if (!(await this.exists(name))) return false;
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: name }));
    return true;
  }

  private async exists(name: string): Promise<boolean> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: name }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  url(name: string): string {
    return this.naming.urlOf(this.check(name));
  }

  async list(options: ListOptions = {}): Promise<StoredObject[]> {
    const limit = options.limit ?? LIST_DEFAULTS.limit;
    const offset = options.offset ?? LIST_DEFAULTS.offset;
    const order = options.sortBy?.order ?? LIST_DEFAULTS.sortBy.order;
    const { sdk, client } = await this.connect();
    // S3 lists keys in ascending byte order, 1,000 at a time, with no offset:
    // walk from the start. A gallery's bucket holds thousands of files, not millions.
    const all: StoredObject[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, ContinuationToken: token, MaxKeys: 1000 }));
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined && this.naming.isValidName(object.Key)) {
          all.push({ name: object.Key, size: Number(object.Size ?? 0), modifiedAt: object.LastModified ?? new Date(0) });
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (order === "asc" && all.length >= offset + limit) break;
    } while (token);
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (order === "desc") all.reverse();
    return all.slice(offset, offset + limit);
  }

  async open(name: string): Promise<OpenedObject | undefined> {
    if (!this.naming.isValidName(name)) return undefined;
    const { sdk, client } = await this.connect();
    let response;
    try {
      response = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: name }));
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
    const body = response.Body as Readable;
    return {
      size: Number(response.ContentLength ?? 0),
      // From the name, as on disk: what a request is answered with never depends on what an uploader claimed.
      contentType: this.naming.contentTypeOf(name),
      modifiedAt: response.LastModified ?? new Date(0),
      stream: () => body,
      close: async () => {
        body.destroy();
      },
    };
  }

  async read(name: string): Promise<Uint8Array | undefined> {
    const opened = await this.open(name);
    if (!opened) return undefined;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of opened.stream()) chunks.push(chunk as Buffer);
    } finally {
      await opened.close();
    }
    return Buffer.concat(chunks);
  }

  /** Whether the bucket answers with these credentials (a warning at start, never a refusal to start). */
  async probe(): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.config.bucket }));
  }

  /** Ends the client's keep-alive connections. */
  close(): void {
    void this.loaded?.then(({ client }) => client.destroy());
  }
}

/** The HTTP status of an SDK error, if it came from the store. */
function statusOf(error: unknown): number | undefined {
  const metadata = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata;
  return metadata?.httpStatusCode;
}
