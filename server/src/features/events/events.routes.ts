// The live streams (docs/events.md#live-streams), thin over the process's one change
// follower: every stream here subscribes to it, and what each may see is decided per change,
// at delivery, by the domain (shared/src/domain/changes/deliver.ts).
//   GET /api/events       the app: a signed-in person's changes in the workspaces they belong to
//   GET /api/events/page  a published page (?a=slug, ?id=pageId) or a share link's view (?s=secret[&page=slug]):
//                         only "the document changed" (a short state) and "gone", never content
import { isInsider } from "@atelier/shared/domain/access";
import type { ChangeFollower, FollowedSignal } from "@atelier/shared/domain/changes/follower";
import {
  changeOfSignal,
  deliverableChange,
  pageSlugById,
  pageStreamState,
  pageStreamStateAt,
  type PageStreamState,
} from "@atelier/shared/domain/changes/deliver";
import { readSignals } from "@atelier/shared/domain/changes/feed";
import { resolveSession } from "@atelier/shared/domain/sessions";
import { sharedPageSlug } from "@atelier/shared/domain/share-links";
import { findWorkspace } from "@atelier/shared/domain/workspaces";
import { AppError } from "@atelier/shared/errors";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { Router } from "express";
import { sessionFromRequest, type Deps } from "../../context";
import { readSessionCookie } from "../../http/session-cookie";
import { openSse } from "./sse";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{20,64}$/;

function followerOf(deps: Deps): ChangeFollower {
  if (!deps.follower) throw new AppError("unavailable", "Live updates are not running in this process.");
  return deps.follower;
}

/** Runs handlers one after another, in the order signals came (a stream's events stay in order). */
function serial(onError: (err: unknown) => void) {
  let chain = Promise.resolve();
  return (fn: () => Promise<void>) => {
    chain = chain.then(fn).catch(onError);
  };
}

export function eventRoutes(deps: Deps): Router {
  const r = Router();

  r.get("/api/events", async (req, res) => {
    const follower = followerOf(deps);
    const sessionId = readSessionCookie(req, deps.config.BASE_URL);
    const first = await sessionFromRequest(deps, req);
    if (first.principal.kind !== "user" || !sessionId) throw new AppError("unauthorized", "Sign in to the app first; this stream takes the app session.");
    const lastRaw = req.get("last-event-id") ?? (typeof req.query.last_event_id === "string" ? req.query.last_event_id : undefined);
    const last = lastRaw !== undefined && /^\d{1,15}$/.test(lastRaw) ? Number(lastRaw) : null;
    // The person as they are now (a session ended or expired ends the stream).
    const who = async () => {
      const user = await resolveSession(deps, sessionId);
      if (!user) {
        stream.send("signed_out", {});
        stream.end();
        return null;
      }
      return { kind: "user" as const, user };
    };
    const stream = openSse(req, res, { heartbeat: () => who().then(() => undefined) });
    const queue = serial((err) => {
      deps.logger.warn({ err }, "an event stream failed");
      stream.end();
    });
    let sent = last ?? 0;
    const deliver = async (s: FollowedSignal) => {
      if (stream.closed) return;
      if (s.kind === "resync") return stream.send("resync", { reason: "behind" });
      if (s.kind !== "workspace") return;
      const pos = Number(s._id);
      if (pos <= sent) return;
      sent = pos;
      const c = await changeOfSignal(deps, s);
      if (!c) return;
      const principal = await who();
      if (!principal) return;
      const ws = await findWorkspace(deps, c.workspaceId);
      // The app follows the workspaces a person belongs to (public ones they merely read are not streamed).
      if (!ws || !isInsider(principal, ws)) return;
      const view = await deliverableChange(deps, principal, c);
      if (view) stream.send("change", { workspace_id: c.workspaceId, ...view }, String(pos));
    };
    // Live signals wait in the queue while a resuming stream first reads what it missed.
    const unsubscribe = follower.subscribe((s) => queue(() => deliver(s)));
    stream.onClose(unsubscribe);
    if (last === null) {
      stream.send("ready", {});
      return;
    }
    queue(async () => {
      let after = last;
      for (;;) {
        const r = await readSignals(deps, after, 200);
        if (r.behind) {
          stream.send("resync", { reason: "cursor_expired" });
          break;
        }
        for (const s of r.signals) await deliver(s);
        if (r.signals.length < 200) break;
        after = r.next;
      }
      stream.send("ready", {});
    });
  });

  r.get("/api/events/page", async (req, res) => {
    const follower = followerOf(deps);
    const q = (k: string) => (typeof req.query[k] === "string" ? (req.query[k] as string) : undefined);
    const a = q("a");
    const id = q("id");
    const secret = q("s");
    const pageSlug = q("page");
    // Where the page is, and how its reader reaches it (the public, or a share link's holder).
    let locate: () => Promise<string | null>;
    let reach: "public" | "link" = "public";
    if (a !== undefined && SlugSchema.safeParse(a).success) locate = () => Promise.resolve(a);
    else if (id !== undefined && UUID.test(id)) locate = () => pageSlugById(deps, id);
    else if (secret !== undefined && SECRET.test(secret) && (pageSlug === undefined || SlugSchema.safeParse(pageSlug).success)) {
      reach = "link";
      locate = () => sharedPageSlug(deps, secret, pageSlug);
    } else throw new AppError("invalid_request", "Name a page: ?a={slug}, ?id={pageId}, or ?s={share link secret}[&page={slug}].");
    // Read once per change and page in this process (every stream on the page shares it); the link itself per stream.
    const state = async (signal?: object): Promise<PageStreamState> => {
      const slug = await locate();
      if (!slug) return { kind: "gone" };
      return signal ? pageStreamStateAt(deps, signal, slug, reach) : pageStreamState(deps, slug, reach);
    };
    const now = await state();
    if (now.kind === "gone") throw new AppError("not_found", "No such page.");
    // Carries nothing private, and a published page's scripts run in an opaque origin ("null"): any origin may listen.
    const stream = openSse(req, res, { headers: { "Access-Control-Allow-Origin": "*", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" } });
    const queue = serial((err) => {
      deps.logger.warn({ err }, "a page stream failed");
      stream.end();
    });
    let current = now.state;
    stream.send("ready", { state: current });
    const unsubscribe = follower.subscribe((s) =>
      queue(async () => {
        if (stream.closed) return;
        if (s.kind !== "resync" && (s.kind !== "workspace" || s.id !== now.workspaceId)) return;
        const next = await state(s);
        if (next.kind === "gone") {
          stream.send("gone", {});
          return stream.end();
        }
        if (next.state !== current) {
          current = next.state;
          stream.send("change", { state: current });
        }
      }),
    );
    stream.onClose(unsubscribe);
  });

  return r;
}
