// MCP resource subscriptions (2026-07-28 `subscriptions/listen`), checked at every delivery
// (docs/events.md#mcp-resource-subscriptions, docs/decisions.md#mcp-resource-subscriptions-issue-25).
//
// The SDK's createMcpHandler serves `subscriptions/listen` streams from one event bus and
// filters them by URI only: a stream opened by a token later revoked, or cut off its
// workspace, would go on being told that `artifact://…` changed. So each listen stream here
// gets a handler and a bus of its own (the SDK still does the wire: header checks, the
// acknowledgement, subscription ids, keep-alives, the graceful end), and this hub, one
// subscriber of the process's change follower, publishes on a stream's bus only after
// asking, per change and per stream:
//   - is the stream's credential still good now (authenticateBearer: revoked or expired ends
//     the stream, with the spec's graceful close);
//   - may that principal see this change in the workspace as it is now (changeFor, the one
//     rule shared with the app's stream and list_changes).
// The notification carries the URI only; the subscriber reads the page with its own access.
import type { Principal } from "@atelier/shared/domain/access";
import { changeOfSignal, deliverableChange } from "@atelier/shared/domain/changes/deliver";
import type { ChangeFollower, FollowedSignal } from "@atelier/shared/domain/changes/follower";
import type { StoreDeps } from "@atelier/shared/domain/deps";
import { findPageBySlug } from "@atelier/shared/domain/pages/page-store";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import type { Logger } from "@atelier/shared/logger";
import { createMcpHandler, type McpHttpHandler, type McpServerFactory, type ServerEvent, type ServerEventBus } from "@modelcontextprotocol/server";

/** Open listen streams per process; the next one is refused as the SDK does (-32603 "Subscription limit reached"). */
export const MAX_LISTEN_STREAMS = 1024;
/** The URIs of a stream that are followed (each is looked up when the stream opens); any beyond are not. */
export const MAX_URIS_PER_STREAM = 100;
/** How often every stream's credential is checked without a change (an expiry has no signal). */
const RECHECK_MS = 15_000;
const ARTIFACT_URI = /^artifact:\/\/([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)$/;

/** The change types after which a subscribed slug with no page yet may name one. */
const NAMING_TYPES = new Set(["page.created", "page.moved", "page.restored"]);

interface ListenStream {
  /** Who opened it: re-read at every delivery from its credential (null: no credential, the public). */
  readonly credential: string | null;
  readonly tokenId: string | null;
  readonly handler: McpHttpHandler;
  /** The SDK's listener on this stream's bus (null until the SDK subscribed, and after it left). */
  listener: ((event: ServerEvent) => void) | null;
  /** Subscribed URIs by the id of the page each named when resolved. */
  readonly byPage: Map<string, Set<string>>;
  /** Subscribed slugs that named no page when last looked up. */
  readonly unresolved: Map<string, string>;
  ended: boolean;
}

/** The `resourceSubscriptions` of a listen request's body (the SDK validates the rest). */
export function subscribedUris(body: unknown): string[] {
  const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | null)?.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === "string").slice(0, MAX_URIS_PER_STREAM) : [];
}

export function isListenRequest(body: unknown): boolean {
  return !Array.isArray(body) && (body as { method?: unknown } | null)?.method === "subscriptions/listen";
}

/** Runs handlers one after another, in the order signals came (every stream's notifications stay in order). */
function serial(onError: (err: unknown) => void) {
  let chain = Promise.resolve();
  return (fn: () => Promise<void>) => {
    chain = chain.then(fn).catch(onError);
  };
}

export class ResourceSubscriptions {
  private readonly streams = new Set<ListenStream>();
  private readonly queue: (fn: () => Promise<void>) => void;
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: StoreDeps & { logger: Logger },
    follower: ChangeFollower,
    private readonly factory: McpServerFactory,
    private readonly onerror: (err: Error) => void,
  ) {
    this.queue = serial((err) => deps.logger.warn({ err }, "an MCP subscription delivery failed"));
    this.unsubscribe = follower.subscribe((s) => this.queue(() => this.deliver(s)));
    this.timer = setInterval(() => this.queue(() => this.recheckAll()), RECHECK_MS);
    this.timer.unref();
  }

  get open(): number {
    return this.streams.size;
  }

  /**
   * Serves one `subscriptions/listen` request (already routed as 2026-07-28): a handler and a
   * bus for this stream alone, whose only publisher is this hub.
   */
  async serve(request: globalThis.Request, parsedBody: unknown, principal: Principal, credential: string | null): Promise<globalThis.Response> {
    if (this.streams.size >= MAX_LISTEN_STREAMS) {
      const id = (parsedBody as { id?: unknown } | null)?.id ?? null;
      this.onerror(new Error(`subscriptions/listen refused: subscription limit reached (${MAX_LISTEN_STREAMS})`));
      return Response.json({ jsonrpc: "2.0", id, error: { code: -32603, message: "Subscription limit reached" } });
    }
    const stream: ListenStream = {
      credential,
      tokenId: principal.kind === "token" ? principal.token._id : null,
      handler: null as unknown as McpHttpHandler,
      listener: null,
      byPage: new Map(),
      unresolved: new Map(),
      ended: false,
    };
    for (const uri of subscribedUris(parsedBody)) {
      const slug = ARTIFACT_URI.exec(uri)?.[1];
      if (slug) stream.unresolved.set(slug, uri);
    }
    await this.resolve(stream);
    const bus: ServerEventBus = {
      publish: (event) => stream.listener?.(event),
      subscribe: (listener) => {
        stream.listener = listener;
        this.streams.add(stream);
        return () => {
          stream.listener = null;
          stream.ended = true;
          this.streams.delete(stream);
        };
      },
    };
    (stream as { handler: McpHttpHandler }).handler = createMcpHandler(this.factory, { legacy: "reject", onerror: this.onerror, bus });
    return stream.handler.fetch(request, parsedBody !== undefined ? { parsedBody } : undefined);
  }

  /** Ends every stream gracefully (the process is stopping: clients listen again elsewhere). */
  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    await Promise.all([...this.streams].map((s) => this.end(s)));
  }

  private async end(s: ListenStream): Promise<void> {
    if (s.ended) return;
    s.ended = true;
    this.streams.delete(s);
    await s.handler.close().catch(() => undefined);
  }

  /** Looks up the pages of subscribed slugs that named none yet. */
  private async resolve(s: ListenStream): Promise<void> {
    for (const [slug, uri] of s.unresolved) {
      const page = await findPageBySlug(this.deps, slug);
      if (!page) continue;
      s.unresolved.delete(slug);
      let uris = s.byPage.get(page._id);
      if (!uris) s.byPage.set(page._id, (uris = new Set()));
      uris.add(uri);
    }
  }

  /** The stream's principal now, or null after ending the stream (its credential no longer works). */
  private async principalOf(s: ListenStream): Promise<Principal | null> {
    if (s.credential === null) return { kind: "nobody" };
    try {
      return { kind: "token", token: await authenticateBearer(this.deps, s.credential) };
    } catch {
      await this.end(s);
      return null;
    }
  }

  private async recheckAll(): Promise<void> {
    for (const s of [...this.streams]) if (s.credential !== null) await this.principalOf(s);
  }

  private async deliver(signal: FollowedSignal): Promise<void> {
    if (this.streams.size === 0) return;
    // Fallen behind: what was missed is unknown, so every stream ends; its client listens again and reads afresh.
    if (signal.kind === "resync") {
      await Promise.all([...this.streams].map((s) => this.end(s)));
      return;
    }
    if (signal.kind === "token") {
      for (const s of [...this.streams]) if (s.tokenId === signal.id) await this.principalOf(s);
      return;
    }
    const c = await changeOfSignal(this.deps, signal);
    if (!c || c.target.kind !== "page") return;
    for (const s of [...this.streams]) {
      if (s.ended) continue;
      if (s.unresolved.size > 0 && NAMING_TYPES.has(c.type)) await this.resolve(s);
      const uris = s.byPage.get(c.target.id);
      if (uris && (await this.mayKnow(s, c))) for (const uri of uris) s.listener?.({ kind: "resource_updated", uri });
    }
  }

  /** Whether the stream's principal, as it is now, may see the change in its workspace as it is now (changeFor). */
  private async mayKnow(s: ListenStream, c: NonNullable<Awaited<ReturnType<typeof changeOfSignal>>>): Promise<boolean> {
    const principal = await this.principalOf(s);
    return principal !== null && (await deliverableChange(this.deps, principal, c)) !== null;
  }
}
