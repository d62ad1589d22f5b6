// The batch a process keeps between flushes: one row per page, share link and day, with the
// day read from the one clock on every read (also when the clock moves back, as tests do), and
// the reader's address asked for only when a visitor is counted.
import { afterEach, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "../clock";
import { ViewCounter } from "./counter";
import { countServedRead } from "./views";

const counter = () => new ViewCounter({ database: null as never, config: { ANALYTICS_ENABLED: true, ANALYTICS_FLUSH_SECONDS: 5 } });
const page = { workspaceId: "ws_1", pageId: "pg_1" };
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

afterEach(() => resetClock());

describe("the batch of views", () => {
  it("starts a new row when the day changes, either way the clock moves", () => {
    const views = counter();
    const bot = () => views.record({ kind: "bot", ...page, shareLinkId: null });
    advanceClock(86_400);
    bot();
    bot();
    expect(views.waiting).toBe(1); // tomorrow's row
    resetClock();
    bot();
    expect(views.waiting).toBe(2); // today's
    advanceClock(86_400);
    bot();
    expect(views.waiting).toBe(2); // tomorrow's again
    advanceClock(86_400);
    bot();
    expect(views.waiting).toBe(3);
  });

  it("asks for the reader's address only when it counts a visitor", () => {
    const views = counter();
    let asked = 0;
    const address = () => {
      asked++;
      return "192.0.2.10";
    };
    countServedRead(views, { method: "GET", query: "", headers: {}, address }, page, true); // no user agent: a script, counted as a bot
    countServedRead(views, { method: "GET", query: "", headers: { "user-agent": FIREFOX, dnt: "1" }, address }, page, true);
    expect(asked).toBe(0);
    countServedRead(views, { method: "GET", query: "", headers: { "user-agent": FIREFOX }, address }, page, true);
    expect(asked).toBe(1);
    expect(views.waiting).toBe(1);
  });
});
