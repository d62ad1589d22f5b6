// The JSON body of a POST to /mcp, read straight from node:http: what Express's json parser
// did for this endpoint (media type application/json, strict: an object or an array, UTF-8,
// gzip/deflate/br inflated, a size limit before and after inflating), without its per-request
// middleware. A body of another media type is left unread (undefined) for the SDK to refuse.
import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate } from "node:zlib";
import { AppError } from "@atelier/shared/errors";

const INFLATE = { gzip: promisify(gunzip), "x-gzip": promisify(gunzip), deflate: promisify(inflate), br: promisify(brotliDecompress) } as const;

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${Math.round(limit / (1024 * 1024))} MB.`);
}

function notJson(): AppError {
  return new AppError("invalid_json", "Parse error: the body is not valid JSON.");
}

/** Whether the request says its body is JSON (application/json, any parameters). */
function isJsonRequest(req: IncomingMessage): boolean {
  const type = req.headers["content-type"];
  if (!type) return false;
  return (type.split(";", 1)[0] ?? "").trim().toLowerCase() === "application/json";
}

function charsetOf(type: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type);
  return m?.[1]?.toLowerCase();
}

/** The whole body, or payload_too_large as soon as it is declared or counted past `limit` (the rest is left unread). */
function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: AppError | null) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = () => finish(notJson());
    const onClose = () => {
      if (!req.complete) finish(notJson());
    };
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/** How long a refused request's body is read on, and thrown away, before the connection is cut. */
const DRAIN_MS = 10_000;

/**
 * Reads what is left of a refused request's body and throws it away, as Express's parser
 * did: answering while a client or proxy is still sending makes it see a reset (nginx turns
 * a 413 into its own 502). A body still arriving after DRAIN_MS is cut off.
 */
export function drainRequest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      req.destroy();
    }, DRAIN_MS);
    req.on("end", done).on("close", done).on("error", done);
    req.removeAllListeners("data");
    req.resume();
  });
}

/** The parsed body, or undefined when the request does not say it is JSON. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!isJsonRequest(req)) return undefined;
  const charset = charsetOf(req.headers["content-type"] ?? "");
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") throw notJson();
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && !Object.hasOwn(INFLATE, encoding)) throw notJson();
  let raw = await readAll(req, limit);
  if (encoding !== "identity") {
    try {
      raw = await INFLATE[encoding as keyof typeof INFLATE](raw, { maxOutputLength: limit });
    } catch (err) {
      throw (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? tooLarge(limit) : notJson();
    }
  }
  const text = raw.toString("utf8");
  const first = /\S/.exec(text);
  // An empty body is an empty object, as Express's parser had it; anything but an object or an array is refused.
  if (!first) return {};
  if (first[0] !== "{" && first[0] !== "[") throw notJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notJson();
  }
}
