// The public HTTP surface as a script sees it: a cookie-keeping client for tRPC (plain JSON)
// and the plain routes, always through nginx, plus raw HTTP for what fetch refuses to send.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { waitForCode } from "./mail";
import { stack } from "./stack";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

interface TrpcEnvelope {
  result?: { data?: unknown };
  error?: unknown;
}

export class Api {
  cookie = "";
  constructor(readonly base: string = stack.baseUrl) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const method = (init.method ?? "GET").toUpperCase();
    // A browser on the app's own origin sends this with every state-changing request.
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", stack.baseUrl);
    if (this.cookie && !headers.has("cookie")) headers.set("cookie", this.cookie);
    const res = await fetch(`${this.base}${path}`, { ...init, headers, redirect: "manual", signal: init.signal ?? AbortSignal.timeout(30_000) });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0] ?? "";
      const [name] = pair.split("=");
      const others = this.cookie.split("; ").filter((p) => p && !p.startsWith(`${name}=`));
      this.cookie = [...others, ...(/=$/.test(pair) ? [] : [pair])].join("; ");
    }
    return res;
  }

  async mutation<T>(proc: string, input: unknown): Promise<T> {
    const res = await this.fetch(`/api/trpc/${proc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as TrpcEnvelope;
    if (!res.ok) throw new ApiError(res.status, body, proc);
    return body.result?.data as T;
  }

  async query<T>(proc: string, input?: unknown): Promise<T> {
    const qs = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await this.fetch(`/api/trpc/${proc}${qs}`);
    const body = (await res.json()) as TrpcEnvelope;
    if (!res.ok) throw new ApiError(res.status, body, proc);
    return body.result?.data as T;
  }

  /** Signs in through the public API with the code from the captured mail. */
  async signIn(email: string): Promise<{ user: { id: string; email: string } }> {
    const since = Date.now();
    await this.mutation("auth.requestCode", { email });
    const code = await waitForCode(email, since);
    return this.mutation("auth.verifyCode", { email, code });
  }
}

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export function uniqueSlug(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** One HTTP request with node:http: any body bytes, and a chosen source address. */
export function httpCall(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; localAddress?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: opts.method ?? "GET", headers: opts.headers ?? {}, localAddress: opts.localAddress, timeout: opts.timeoutMs ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - t0 }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/**
 * Bytes straight onto a socket, for requests no HTTP client would send (raw bytes in the
 * path, CR/LF in headers, conflicting lengths). Returns the status of the first answer, or
 * 0 when the server closed the connection without one.
 */
export function rawHttp(bytes: Buffer, timeoutMs = 15_000): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m?.[1] ? Number(m[1]) : 0, head: text.split("\r\n\r\n")[0] ?? "" });
    };
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      done();
    });
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      // One answer is enough: stop once its head has arrived.
      if (Buffer.concat(chunks).includes("\r\n\r\n")) {
        socket.destroy();
        done();
      }
    });
    socket.on("end", done);
    socket.on("error", (err) => (chunks.length ? done() : reject(err)));
    socket.write(bytes);
  });
}
