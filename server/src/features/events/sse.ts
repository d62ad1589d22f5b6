// One Server-Sent Events response: the headers streams need behind nginx (no buffering, no
// caching, no compression), events written in order, a heartbeat comment that keeps proxies
// from timing the stream out, and one close path (docs/events.md#live-streams).
import type { Request, Response } from "express";

/** How often an idle stream says it is alive (nginx's read timeout for streams is far longer). */
export const HEARTBEAT_MS = 15_000;

/** The streams this process holds open, so that shutting down ends them at once. */
const open = new Set<SseStream>();

/** Ends every stream of this process (their clients reconnect, to another process behind nginx). */
export function endAllStreams(): void {
  for (const s of [...open]) s.end();
}

export interface SseStream {
  send(event: string, data: unknown, id?: string): void;
  /** Ends the stream (after a last event, if any). */
  end(): void;
  readonly closed: boolean;
  /** Called once, when the client goes or the stream is ended. */
  onClose(fn: () => void): void;
}

export function openSse(req: Request, res: Response, opts: { heartbeat?: () => void | Promise<void>; headers?: Record<string, string> } = {}): SseStream {
  res.status(200).set({
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store, no-transform",
    "X-Accel-Buffering": "no",
    "X-Content-Type-Options": "nosniff",
    Connection: "keep-alive",
    ...opts.headers,
  });
  res.flushHeaders();
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  // A client that lost the stream comes back after a second (the EventSource default is 3 s).
  res.write("retry: 1000\n\n");
  let closed = false;
  const closers: (() => void)[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(beat);
    for (const fn of closers) fn();
  };
  const beat = setInterval(() => {
    if (closed) return;
    res.write(": ok\n\n");
    if (opts.heartbeat) void Promise.resolve(opts.heartbeat()).catch(() => stream.end());
  }, HEARTBEAT_MS);
  beat.unref();
  res.on("close", close);
  closers.push(() => open.delete(stream));
  const stream: SseStream = {
    send(event, data, id) {
      if (closed) return;
      res.write(`${id !== undefined ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (closed) return;
      close();
      res.end();
    },
    get closed() {
      return closed;
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
  open.add(stream);
  return stream;
}
