import { describe, expect, it } from "vitest";
import { addressFromTitle, isPlaceholderSlug, placeholderSlug } from "./untitled";
import { isValidSlug } from "./slug";

describe("one-click new pages", () => {
  it("start at a placeholder address that is a valid slug and is recognised as one", () => {
    const slug = placeholderSlug();
    expect(isValidSlug(slug)).toBe(true);
    expect(isPlaceholderSlug(slug)).toBe(true);
    expect(isPlaceholderSlug("untitled-notes")).toBe(false);
  });

  it("take their address from the title on the first save, with a suffix when it is taken", () => {
    expect(addressFromTitle("Trip notes — Été 2026!")).toBe("trip-notes-ete-2026");
    expect(addressFromTitle("Untitled")).toBeNull();
    expect(addressFromTitle("  ")).toBeNull();
    expect(addressFromTitle("!!!")).toBeNull();
    const second = addressFromTitle("Trip notes", 1) ?? "";
    expect(second).toMatch(/^trip-notes-[a-z0-9]{4}$/);
    expect(isValidSlug(second)).toBe(true);
  });
});
