// How tall the page view's frame is. The published document, embedded (`?embed=1`), posts
// its height whenever it changes (shared/src/domain/render.ts); the frame follows it, so
// the page reads at full length with no scroll inside a scroll. Two guards:
//   - a document that never reports (its own policy blocks our script) gets the old fixed,
//     scrolling frame once it has loaded and said nothing for a moment;
//   - a document whose height follows the frame's (an author's `min-height: 100vh` plus a
//     margin) would grow it for ever: after a few growths by the very same step, the frame
//     stops following and scrolls instead.
// Pure, so it is unit-tested (frame-height.test.ts).

export type FrameHeight = { mode: "waiting" } | { mode: "sized"; height: number; step: number; sameSteps: number } | { mode: "fixed" };

export type FrameEvent = { type: "reported"; height: number } | { type: "silent" } | { type: "reset" };

export const MIN_FRAME_HEIGHT = 80;
export const MAX_FRAME_HEIGHT = 200_000;
/** Growths by one same step in a row that mean the document follows the frame. */
export const RUNAWAY_STEPS = 4;

export const initialFrameHeight: FrameHeight = { mode: "waiting" };

export function frameHeight(state: FrameHeight, event: FrameEvent): FrameHeight {
  switch (event.type) {
    case "reset":
      return initialFrameHeight;
    case "silent":
      return state.mode === "waiting" ? { mode: "fixed" } : state;
    case "reported": {
      if (state.mode === "fixed") return state;
      const height = Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(event.height)));
      if (state.mode === "waiting") return { mode: "sized", height, step: 0, sameSteps: 0 };
      if (height === state.height) return state;
      const step = height - state.height;
      const sameSteps = step <= 0 ? 0 : Math.abs(step - state.step) <= 1 ? state.sameSteps + 1 : 1;
      if (sameSteps >= RUNAWAY_STEPS) return { mode: "fixed" };
      return { mode: "sized", height, step, sameSteps };
    }
  }
}

/** The height in a message from the frame, or null when the message is anything else. */
export function reportedHeight(data: unknown): number | null {
  if (typeof data !== "object" || data === null) return null;
  const { type, height } = data as { type?: unknown; height?: unknown };
  return type === "atelier:height" && typeof height === "number" && Number.isFinite(height) && height > 0 ? height : null;
}
