// Webhook signing secrets (docs/security.md#webhook-secrets). Standard Webhooks signs with an
// HMAC, so the server needs each secret in clear when it signs: unlike tokens, a secret cannot
// be kept only as a hash. It is kept encrypted instead (AES-256-GCM, a key derived from
// SECRET_KEY with HKDF for this purpose only), so a copy of the database or a backup without
// SECRET_KEY reveals no secret. It is shown to the owner once, when made.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

function keyOf(secretKey: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "atelier", "webhook-signing-secrets", 32));
}

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function encryptSecret(secretKey: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secretKey), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1.${iv.toString("base64url")}.${body.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
}

export function decryptSecret(secretKey: string, enc: string): string {
  const [v, iv, body, tag] = enc.split(".");
  if (v !== "v1" || !iv || !body || !tag) throw new Error("webhook secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(secretKey), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
