import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A software WebAuthn authenticator for tests, built from node:crypto: an
 * ES256 (P-256) key pair per passkey, "none" attestation in CBOR, and
 * assertions signed over authenticatorData ‖ SHA-256(clientDataJSON), as a
 * browser and a platform authenticator would produce them. The server's
 * verifier (@simplewebauthn/server) checks them for real.
 */

/** The few CBOR (RFC 8949) items WebAuthn needs: unsigned and negative integers, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const bytes = Buffer.alloc(5);
    bytes[0] = (major << 5) | 26;
    bytes.writeUInt32BE(length, 1);
    return bytes;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [key, item] of value) parts.push(cbor(key), cbor(item));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();

const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 } as const;

export type SoftPasskey = {
  id: string;
  rawId: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
};

export type CeremonyOptions = {
  /** The page's origin as the browser reports it; default https://<rpId>. */
  origin?: string;
  /** Whether the authenticator verified the user (PIN, fingerprint); default true. */
  userVerified?: boolean;
};

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

function flags(userVerified: boolean, attested: boolean): number {
  return FLAGS.userPresent | (userVerified ? FLAGS.userVerified : 0) | (attested ? FLAGS.attested : 0);
}

function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  // kty EC2, alg ES256, crv P-256, x, y.
  return cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

/** Answers registration options (as generateRegistrationOptions made them): a new passkey and the browser's response JSON. */
export function createPasskey(
  options: { challenge: string; rp: { id?: string }; user: { id: string } },
  { origin, userVerified = true }: CeremonyOptions = {},
): { passkey: SoftPasskey; response: Record<string, unknown> } {
  const rpId = options.rp.id!;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const rawId = randomBytes(16);
  const counter = 0;
  const signCount = Buffer.alloc(4);
  signCount.writeUInt32BE(counter);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(rawId.length);
  const authData = Buffer.concat([sha256(rpId), Buffer.from([flags(userVerified, true)]), signCount, Buffer.alloc(16), idLength, rawId, coseKey(publicKey)]);
  const attestationObject = cbor(
    new Map<string, unknown>([
      ["fmt", "none"],
      ["attStmt", new Map()],
      ["authData", authData],
    ]),
  );
  const passkey: SoftPasskey = { id: b64url(rawId), rawId, privateKey, publicKey, userHandle: options.user.id, rpId, counter };
  return {
    passkey,
    response: {
      id: passkey.id,
      rawId: passkey.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData("webauthn.create", options.challenge, origin ?? `https://${rpId}`)),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
    },
  };
}

/** Answers authentication options with the passkey: the browser's response JSON (the passkey's counter goes up by one). */
export function assertPasskey(
  passkey: SoftPasskey,
  options: { challenge: string },
  { origin, userVerified = true, counter = passkey.counter + 1 }: CeremonyOptions & { counter?: number } = {},
): Record<string, unknown> {
  passkey.counter = counter;
  const signCount = Buffer.alloc(4);
  signCount.writeUInt32BE(counter);
  const authenticatorData = Buffer.concat([sha256(passkey.rpId), Buffer.from([flags(userVerified, false)]), signCount]);
  const clientDataJSON = clientData("webauthn.get", options.challenge, origin ?? `https://${passkey.rpId}`);
  const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), passkey.privateKey);
  return {
    id: passkey.id,
    rawId: passkey.id,
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
  };
}
