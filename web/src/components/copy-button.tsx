import { useEffect, useRef, useState } from "react";

/** Puts text on the clipboard; falls back to a hidden textarea where the API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused: try the old way below.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/**
 * A "Copy" button that says "Copied" for a moment (announced to screen readers). `label`
 * names what is copied for assistive technology, e.g. "Copy the link".
 */
export function CopyButton({
  text,
  label,
  children = "Copy",
  className = "button button--small",
}: {
  text: string;
  label: string;
  children?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    const ok = await copyText(text);
    setState(ok ? "copied" : "failed");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setState("idle"), 2000);
  };

  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => void copy()}
        // The words on the button are part of its name (axe: label-content-name-mismatch).
        aria-label={state === "copied" ? `Copied: ${label}` : state === "failed" ? `Select and copy: ${label}` : label}
        data-state={state}
      >
        {state === "copied" ? (
          <>
            <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <path d="m3 8.5 3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            Copied
          </>
        ) : state === "failed" ? (
          "Select and copy"
        ) : (
          children
        )}
      </button>
      <span className="sr-only" role="status" aria-live="polite">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Couldn’t copy; select the text and copy it" : ""}
      </span>
    </>
  );
}
