import { describe, expect, it } from "vitest";
import { isPaletteShortcut, moveActive, recentOptions, searchOptions, snippetPieces } from "./search-options";

describe("the search palette's options", () => {
  it("lists workspaces, then pages, then tables, each with where it leads", () => {
    const options = searchOptions({
      workspaces: [{ slug: "garden", name: "Garden club" }],
      pages: [{ slug: "compost", title: "Compost guide", workspace: "garden", workspace_name: "Garden club", snippet: { text: "", highlights: [] } }],
      tables: [{ slug: "seeds", name: "Seeds", workspace: "garden", workspace_name: "Garden club" }],
    });
    expect(options.map((o) => [o.group, o.title, o.href])).toEqual([
      ["Workspaces", "Garden club", "/buckets/garden"],
      ["Pages", "Compost guide", "/buckets/garden/compost"],
      ["Tables", "Seeds", "/buckets/garden/tables/seeds"],
    ]);
    expect(searchOptions(undefined)).toEqual([]);
  });

  it("cuts a page's snippet into plain and marked pieces at its highlights, ignoring ones out of place", () => {
    expect(snippetPieces({ text: "turn the compost weekly", highlights: [[9, 16]] })).toEqual([
      { text: "turn the ", mark: false },
      { text: "compost", mark: true },
      { text: " weekly", mark: false },
    ]);
    expect(
      snippetPieces({
        text: "abc",
        highlights: [
          [0, 1],
          [0, 2],
          [2, 9],
        ],
      }),
    ).toEqual([
      { text: "a", mark: true },
      { text: "bc", mark: false },
    ]);
    const [page] = searchOptions({
      workspaces: [],
      pages: [{ slug: "c", title: "C", workspace: "g", workspace_name: "G", snippet: { text: "wet compost", highlights: [[4, 11]] } }],
      tables: [],
    });
    expect(page?.snippet).toEqual([
      { text: "wet ", mark: false },
      { text: "compost", mark: true },
    ]);
  });

  it("offers recent items, newest first, before anything is typed", () => {
    const options = recentOptions([
      { kind: "page", href: "/buckets/garden/compost", title: "Compost guide", where: "Garden club" },
      { kind: "workspace", href: "/buckets/garden", title: "Garden club", where: "" },
    ]);
    expect(options.map((o) => [o.group, o.title, o.detail, o.href])).toEqual([
      ["Recent", "Compost guide", "Garden club", "/buckets/garden/compost"],
      ["Recent", "Garden club", "Workspace", "/buckets/garden"],
    ]);
  });

  it("moves the active option with wrap-around", () => {
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(0, 0, 1)).toBe(-1);
  });

  it("opens on ⌘K and Ctrl-K only", () => {
    const k = { key: "k", metaKey: false, ctrlKey: false, altKey: false, shiftKey: false };
    expect(isPaletteShortcut({ ...k, metaKey: true })).toBe(true);
    expect(isPaletteShortcut({ ...k, ctrlKey: true, key: "K" })).toBe(true);
    expect(isPaletteShortcut(k)).toBe(false);
    expect(isPaletteShortcut({ ...k, ctrlKey: true, shiftKey: true })).toBe(false);
  });
});
