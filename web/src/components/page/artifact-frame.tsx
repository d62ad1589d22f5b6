// The published page inside the app's page view: the document from /a/{slug} in a sandboxed
// frame (scripts run in an opaque origin: they can never reach the app), sized to its
// content. The document is asked for in its embedded form (`?embed=1`), whose tiny script
// posts its height here and adds a Copy button to code blocks (lib/frame-height.ts says how
// the height is followed, and when it is not).
import { useEffect, useReducer, useRef } from "react";
import { frameHeight, initialFrameHeight, reportedHeight } from "../../lib/frame-height";

/** How long a loaded document may stay silent before the frame gives up waiting for its height. */
const SILENCE_MS = 1500;

export function ArtifactFrame({ path, version, title }: { path: string; version: number; title: string }) {
  const ref = useRef<HTMLIFrameElement>(null);
  const [state, dispatch] = useReducer(frameHeight, initialFrameHeight);
  const src = `${path}?v=${version}&embed=1`;

  useEffect(() => {
    dispatch({ type: "reset" });
    const onMessage = (event: MessageEvent) => {
      // Only our own frame's document, whatever its (opaque) origin says.
      if (!ref.current || event.source !== ref.current.contentWindow) return;
      const height = reportedHeight(event.data);
      if (height !== null) dispatch({ type: "reported", height });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [src]);

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onLoad = () => {
      clearTimeout(timer);
      timer = setTimeout(() => dispatch({ type: "silent" }), SILENCE_MS);
    };
    frame.addEventListener("load", onLoad);
    return () => {
      frame.removeEventListener("load", onLoad);
      clearTimeout(timer);
    };
  }, [src]);

  return (
    <iframe
      ref={ref}
      key={src}
      className={`artifact__frame artifact__frame--${state.mode}`}
      style={state.mode === "sized" ? { height: `${state.height}px` } : undefined}
      src={src}
      title={title}
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
      // The Copy buttons write to the clipboard from inside the frame.
      allow="clipboard-write"
      referrerPolicy="same-origin"
    />
  );
}
