import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { parseEnv } from "~/platform/config/env.server";
import type { S3Config } from "~/platform/storage/s3-storage.server";

/**
 * The S3 server the tests may use, from S3_ENDPOINT, S3_BUCKET and the keys
 * (scripts/test-s3.sh start prints them; .ci/run exports them). Every test
 * gets a bucket of its own on it, as every test gets a database of its own.
 */
export const s3Settings: S3Config | undefined = (() => {
  if (!process.env.S3_BUCKET || !process.env.S3_ENDPOINT) return undefined;
  const { S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE } = process.env;
  return parseEnv({ S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE }).s3;
})();

/** The same settings as the S3_* variables a spawned server takes. */
export function s3EnvOf(config: S3Config): Record<string, string> {
  return {
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint ?? "",
    S3_REGION: config.region,
    S3_ACCESS_KEY_ID: config.credentials?.accessKeyId ?? "",
    S3_SECRET_ACCESS_KEY: config.credentials?.secretAccessKey ?? "",
    S3_FORCE_PATH_STYLE: String(config.forcePathStyle),
  };
}

export type TestBucket = {
  config: S3Config;
  /** Every key in the bucket, sorted, whatever it is. */
  keys(): Promise<string[]>;
  /** Writes a key directly, past the app's checks (or overwrites one). */
  rawPut(key: string, data: Uint8Array | string): Promise<void>;
  rawGet(key: string): Promise<Buffer | undefined>;
  /** Empties and removes the bucket. */
  cleanup(): Promise<void>;
};

function clientOf(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** A new empty bucket t-<random> on the server of S3_ENDPOINT. */
export async function createTestBucket(): Promise<TestBucket> {
  if (!s3Settings) throw new Error("S3_BUCKET and S3_ENDPOINT are not set");
  const config: S3Config = { ...s3Settings, bucket: `t-${randomBytes(8).toString("hex")}` };
  const client = clientOf(config);
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  const keys = async () => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) found.push(object.Key!);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.sort();
  };
  return {
    config,
    keys,
    async rawPut(key, data) {
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: data }));
    },
    async rawGet(key) {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
        return Buffer.from(await response.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      }
    },
    async cleanup() {
      for (const key of await keys()) await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
      await client.send(new DeleteBucketCommand({ Bucket: config.bucket }));
      client.destroy();
    },
  };
}

/**
 * A pass-through in front of the S3 server that counts the requests reaching
 * it: `config` is the same bucket through it (the Host header is passed on as
 * the client signed it, so signatures still hold).
 */
export type CountedS3 = { config: S3Config; requests(): number; close(): Promise<void> };

export async function countS3Requests(config: S3Config): Promise<CountedS3> {
  if (!config.endpoint) throw new Error("counting needs S3_ENDPOINT");
  const upstream = new URL(config.endpoint);
  let requests = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    requests++;
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", (error) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(error.message);
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    config: { ...config, endpoint: `http://127.0.0.1:${port}` },
    requests: () => requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
