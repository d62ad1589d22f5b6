import { describe, expect, it } from "vitest";
import { clearSessionLost, connectionState, reportAnswer, reportNoAnswer, reportSessionLost, retryDelayMs } from "./connection";

describe("connection state", () => {
  it("is offline after a request got no answer, and back once one gets an answer", () => {
    reportNoAnswer();
    expect(connectionState()).toMatchObject({ offline: true, reason: "unreachable" });
    reportAnswer();
    expect(connectionState()).toMatchObject({ offline: false, reason: null });
  });

  it("remembers a lost session until it is dealt with", () => {
    reportSessionLost();
    reportAnswer();
    expect(connectionState().sessionLost).toBe(true);
    clearSessionLost();
    expect(connectionState().sessionLost).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("doubles from one second and stops at thirty", () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelayMs(n, mid))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
  it("spreads retries by a quarter either way", () => {
    expect(retryDelayMs(1, () => 0)).toBe(1500);
    expect(retryDelayMs(1, () => 0.999999)).toBe(2500);
  });
});
