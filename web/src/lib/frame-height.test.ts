import { describe, expect, it } from "vitest";
import { type FrameHeight, frameHeight, initialFrameHeight, MAX_FRAME_HEIGHT, MIN_FRAME_HEIGHT, reportedHeight } from "./frame-height";

const run = (heights: number[], from: FrameHeight = initialFrameHeight) => heights.reduce((s, h) => frameHeight(s, { type: "reported", height: h }), from);

describe("the page view's frame height", () => {
  it("follows what the document reports, up and down, within bounds", () => {
    expect(run([640.2])).toMatchObject({ mode: "sized", height: 641 });
    expect(run([640, 1200, 900])).toMatchObject({ mode: "sized", height: 900 });
    expect(run([3])).toMatchObject({ height: MIN_FRAME_HEIGHT });
    expect(run([10_000_000])).toMatchObject({ height: MAX_FRAME_HEIGHT });
  });

  it("keeps following a document that grows as its images load", () => {
    expect(run([600, 840, 1100, 1180, 1420])).toMatchObject({ mode: "sized", height: 1420 });
  });

  it("stops following a document whose height follows the frame's, and scrolls it instead", () => {
    expect(run([800, 816, 832, 848])).toMatchObject({ mode: "sized", height: 848 });
    expect(run([800, 816, 832, 848, 864])).toEqual({ mode: "fixed" });
    // Once fixed, reports change nothing.
    expect(run([900], { mode: "fixed" })).toEqual({ mode: "fixed" });
  });

  it("falls back to the fixed frame when the document says nothing, but not once it has", () => {
    expect(frameHeight(initialFrameHeight, { type: "silent" })).toEqual({ mode: "fixed" });
    expect(frameHeight(run([500]), { type: "silent" })).toMatchObject({ mode: "sized", height: 500 });
    expect(frameHeight({ mode: "fixed" }, { type: "reset" })).toEqual(initialFrameHeight);
  });

  it("reads only its own messages", () => {
    expect(reportedHeight({ type: "atelier:height", height: 512 })).toBe(512);
    expect(reportedHeight({ type: "other", height: 512 })).toBeNull();
    expect(reportedHeight({ type: "atelier:height", height: "512" })).toBeNull();
    expect(reportedHeight({ type: "atelier:height", height: Number.POSITIVE_INFINITY })).toBeNull();
    expect(reportedHeight("atelier:height")).toBeNull();
    expect(reportedHeight(null)).toBeNull();
  });
});
