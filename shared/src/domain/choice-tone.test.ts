import { describe, expect, it } from "vitest";
import { choiceTone } from "./choice-tone";
import { publishedDate } from "./table-views";

describe("the colour of a choice", () => {
  const options = ["todo", "doing", "done", "blocked", "cancelled"];

  it("says what a state means, and never looks like an error", () => {
    expect(options.map((o) => choiceTone(o, options))).toEqual(["muted", "info", "ok", "warn", "muted"]);
    expect(choiceTone("Done", ["Done"])).toBe("ok");
    expect(choiceTone("In-progress", ["In-progress"])).toBe("info");
    expect(choiceTone("To do", ["To do"])).toBe("muted");
    expect(choiceTone("Won’t do", ["Won’t do"])).toBe("muted");
  });

  it("gives other choices quiet hues by their place among the plain ones, neighbours differing", () => {
    const fruit = ["apple", "done", "pear", "plum", "fig", "kiwi"];
    expect(fruit.map((o) => choiceTone(o, fruit))).toEqual(["violet", "ok", "teal", "slate", "olive", "violet"]);
    expect(choiceTone("gone", fruit)).toBe("muted");
  });
});

describe("dates in published tables", () => {
  it("read the same for every reader, a moment with its time in UTC", () => {
    expect(publishedDate("2026-11-21")).toBe("21 Nov 2026");
    expect(publishedDate("2026-11-21T14:05:00.000Z")).toBe("21 Nov 2026, 14:05 UTC");
    expect(publishedDate("someday")).toBe("someday");
  });
});
