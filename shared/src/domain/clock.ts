// The one clock. Tests move it to cross windows of minutes or days without waiting.
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function nowMs(): number {
  return Date.now() + offsetMs;
}

/** Tests only: move the clock forward by `seconds` (cumulative). */
export function advanceClock(seconds: number): void {
  offsetMs += seconds * 1000;
}

/** Tests only: back to real time. */
export function resetClock(): void {
  offsetMs = 0;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
