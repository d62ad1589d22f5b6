// Paging cursors are opaque to callers and signed with SECRET_KEY, so a forged or altered
// cursor is refused (`invalid_cursor`) before any of it reaches a query.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { invalidCursor } from "../errors";

function mac(secret: string, kind: string, body: string): string {
  return createHmac("sha256", secret).update(`cursor\u0000${kind}\u0000${body}`).digest("base64url").slice(0, 22);
}

/** `payload` as a cursor of `kind` (pages, rows, activity, …). */
export function encodeCursor(secret: string, kind: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${mac(secret, kind, body)}`;
}

/** The payload of a cursor we gave out for `kind`, checked against `schema`; `invalid_cursor` otherwise. */
export function decodeCursor<S extends z.ZodType>(secret: string, kind: string, cursor: string, schema: S, path = "cursor"): z.infer<S> {
  const dot = cursor.lastIndexOf(".");
  if (dot < 1 || cursor.length > 1000) throw invalidCursor(path);
  const body = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), "utf8");
  const expected = Buffer.from(mac(secret, kind, body), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor(path);
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor(path);
  }
  const r = schema.safeParse(payload);
  if (!r.success) throw invalidCursor(path);
  return r.data;
}
