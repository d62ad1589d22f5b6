// A whole server for tests: the real app on a loopback port, the real database (a fresh
// one per call), real SMTP to a server inside the test, and a logger whose lines are kept.
import { ReadCache } from "@atelier/shared/domain/cache";
import { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { ChangeFollower } from "@atelier/shared/domain/changes/follower";
import { createMailer } from "@atelier/shared/domain/mail";
import { capturingLogger, listen, startSmtpCapture, testConfig, testDatabase, type SmtpCapture, type TestDatabase } from "@atelier/shared/testing";
import type { Config } from "@atelier/shared/config";
import { createServer } from "node:http";
import { createApp } from "./app";
import { leanArtifactFront, type LeanFront } from "./http/lean-artifacts";
import type { Deps } from "./context";
import type { MutationPath, QueryPath } from "./trpc-paths";

export interface TestServer {
  url: string;
  config: Config;
  database: TestDatabase;
  smtp: SmtpCapture;
  logLines: string[];
  deps: Deps;
  /** The lean read path in front of the app, as main.ts runs it. */
  lean: LeanFront;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, label = "srv"): Promise<TestServer> {
  const smtp = await startSmtpCapture();
  const database = await testDatabase(label);
  const config = testConfig({ SMTP_URL: smtp.url, ...env });
  const { logger, lines } = capturingLogger("debug");
  const mailer = createMailer(config);
  const cache = new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES);
  const follower = await new ChangeFollower({ config, database, cache }).start();
  const views = new ViewCounter({ database, config });
  const deps: Deps = { config, database, logger, mailer, cache, follower, views };
  const lean = leanArtifactFront(deps, createApp(deps));
  const http = await listen({ listen: (port, host, cb) => createServer(lean.listener).listen(port, host, cb) });
  return {
    url: http.url,
    config,
    database,
    smtp,
    logLines: lines,
    deps,
    lean,
    async close() {
      await views.stop();
      await follower.stop();
      await http.close();
      mailer.close();
      await smtp.close();
      await database.drop();
    },
  };
}

/** A tiny cookie-keeping HTTP client for one browser. */
export class Browser {
  cookie = "";
  constructor(
    readonly base: string,
    readonly origin: string = base,
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("cookie", this.cookie);
    if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("origin", this.origin);
    const res = await fetch(`${this.base}${path}`, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      if (!pair) continue;
      const [name] = pair.split("=");
      const rest = this.cookie.split("; ").filter((p) => p && !p.startsWith(`${name}=`));
      if (!/=$/.test(pair) && !/expires=Thu, 01 Jan 1970/i.test(c)) rest.push(pair);
      this.cookie = rest.join("; ");
    }
    return res;
  }

  /**
   * Calls a tRPC mutation with a plain JSON body (no transformer). The path is typed from the
   * router, so renaming a procedure breaks the tests that call it; the input stays `unknown`
   * because tests also send what the schema refuses.
   */
  mutation(path: MutationPath, input?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.rawMutation(path, input, headers);
  }

  query(path: QueryPath, input?: unknown): Promise<Response> {
    return this.rawQuery(path, input);
  }

  /** A mutation by any path: for tests that walk the router or call what does not exist. */
  rawMutation(path: string, input?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(`/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: input === undefined ? undefined : JSON.stringify(input),
    });
  }

  rawQuery(path: string, input?: unknown): Promise<Response> {
    const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return this.request(`/api/trpc/${path}${q}`);
  }
}

/** Signs a person in through the real HTTP flow (code by SMTP) and returns their browser. */
export async function signIn(srv: TestServer, email: string): Promise<Browser> {
  const { extractCode } = await import("@atelier/shared/testing");
  const b = new Browser(srv.url);
  const before = srv.smtp.messages.length;
  const res = await b.mutation("auth.requestCode", { email });
  if (res.status !== 200) throw new Error(`requestCode: ${res.status} ${await res.text()}`);
  const code = extractCode((await srv.smtp.waitFor(email, before)).raw);
  const ok = await b.mutation("auth.verifyCode", { email, code });
  if (ok.status !== 200) throw new Error(`verifyCode: ${ok.status} ${await ok.text()}`);
  return b;
}

/** The `result.data` of a tRPC answer, or throws with the error. */
/** A tRPC refusal as tests read it: the status, the app's code and the field issues. */
export async function trpcErrorOf(res: Response): Promise<{ status: number; code: string | undefined; issues: { path: string; code: string }[] }> {
  const body = (await res.json()) as { error?: { data?: { appCode?: string; issues?: { path: string; code: string }[] | null } } };
  return { status: res.status, code: body.error?.data?.appCode, issues: body.error?.data?.issues ?? [] };
}

/** Creates a workspace named "Team" at `slug` as `by`; its slug and id. */
export async function createTeamWorkspace(by: Browser, slug: string): Promise<{ slug: string; id: string }> {
  const ws = await trpcData<{ id: string }>(await by.mutation("workspaces.create", { slug, name: "Team" }));
  return { slug, id: ws.id };
}

export async function trpcData<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  if (!body.result) throw new Error(`tRPC error ${res.status}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

/**
 * Reads a Server-Sent Events stream as a browser's EventSource would. `next(match)` waits for
 * the next event that matches (never on a clock: the stream's own events end the wait), and
 * `seen` keeps every event in the order it came.
 */
export class SseReader {
  readonly seen: SseEvent[] = [];
  ended = false;
  private waiters: { match: (e: SseEvent) => boolean; from: number; resolve: (e: SseEvent | null) => void }[] = [];
  private readonly abort = new AbortController();

  private constructor(readonly res: Response) {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const ctl = new AbortController();
    const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: ctl.signal });
    const r = new SseReader(res);
    r.abort.signal.addEventListener("abort", () => ctl.abort());
    if (res.ok && res.body) void r.pump(res.body);
    else r.ended = true;
    return r;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of body) {
        buf += decoder.decode(chunk, { stream: true });
        let at: number;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const e: SseEvent = { id: undefined, event: "message", data: null };
          let data: string | null = null;
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) e.id = line.slice(4);
            else if (line.startsWith("event: ")) e.event = line.slice(7);
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (data === null) continue;
          e.data = JSON.parse(data);
          this.seen.push(e);
          this.settle();
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.settle();
  }

  private settle(): void {
    this.waiters = this.waiters.filter((w) => {
      const found = this.seen.slice(w.from).find(w.match);
      if (found) w.resolve(found);
      else if (this.ended) w.resolve(null);
      else return true;
      return false;
    });
  }

  /**
   * The first event from index `from` on (default: from now) that matches, or null when the
   * stream ended first. Take `from` as `seen.length` before the action whose event you wait
   * for: the event may arrive before the action's own answer does.
   */
  next(match: (e: SseEvent) => boolean = () => true, from = this.seen.length): Promise<SseEvent | null> {
    return new Promise((resolve) => {
      this.waiters.push({ match, from, resolve });
      this.settle();
    });
  }

  /** The first event (seen before or coming) that matches. */
  find(match: (e: SseEvent) => boolean): Promise<SseEvent | null> {
    return new Promise((resolve) => {
      this.waiters.push({ match, from: 0, resolve });
      this.settle();
    });
  }

  close(): void {
    this.abort.abort();
  }
}
