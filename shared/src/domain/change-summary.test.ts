import { describe, expect, it } from "vitest";
import { changeSummary } from "./change-summary";

describe("changeSummary", () => {
  it("says what a version changed in short words", () => {
    expect(changeSummary({ changes: ["text"], restoredFrom: null, lines: { added: 3, removed: 1 } })).toBe("+3 −1 lines");
    expect(changeSummary({ changes: ["text"], restoredFrom: null, lines: { added: 0, removed: 1 } })).toBe("−1 line");
    expect(changeSummary({ changes: ["title"], restoredFrom: null, lines: null })).toBe("title changed");
    expect(changeSummary({ changes: ["title", "text"], restoredFrom: null, lines: { added: 1, removed: 0 } })).toBe("+1 line, title changed");
    expect(changeSummary({ changes: ["text"], restoredFrom: null, lines: null })).toBe("text changed");
    expect(changeSummary({ changes: ["restored", "text"], restoredFrom: 2, lines: { added: 1, removed: 1 } })).toBe("restored from version 2");
    expect(changeSummary({ changes: ["created"], restoredFrom: null, lines: { added: 4, removed: 0 } })).toBe("created, 4 lines");
    expect(changeSummary({ changes: [], restoredFrom: null, lines: null })).toBe("no changes");
  });
});
