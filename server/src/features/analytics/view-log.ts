// The reading end of nginx's view log (docs/ARCHITECTURE.md#reading-figures). nginx appends
// one line per read of a published page to ANALYTICS_NGINX_LOG (a file on tmpfs, written in
// 64 KB buffers: no work per read beyond formatting the line). Every READ_MS this process reads
// what was appended, counts it (each distinct line once, with its number of repeats: a
// reader's reloads, a busy page's cache hits) in memory like any view (ViewCounter), and
// empties the file once it has read all of it, so the raw addresses in it live for about a
// second and are never stored or logged. The file is the queue: lines written while no
// process reads wait in it, and the next reader starts at its beginning.
//
// One process per machine reads: it holds `<file>.reader` (its pid). Others configured with
// the same file stand by and take over when that process is gone.
import { closeSync, ftruncateSync, fstatSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync } from "node:fs";
import type { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { countLoggedRead, parseViewBody, publicPageLookup } from "@atelier/shared/domain/analytics/views";
import type { StoreDeps } from "@atelier/shared/domain/deps";
import type { Logger } from "@atelier/shared/logger";
import { processAlive } from "@atelier/shared/process";

export interface ViewLog {
  /** Lines read and counted as views since start (tests and the bench read them). */
  readonly received: number;
  readonly counted: number;
  /** Whether this process is the one reading. */
  readonly reading: boolean;
  /** Reads what is in the file now and counts it (the timer does this every READ_MS). */
  readNow(): Promise<void>;
  /** Reads what is left, then stops (before the counter's last flush). */
  close(): Promise<void>;
}

const READ_MS = 1000;
/** The file is emptied when all of it has been read and it holds more than this. */
const EMPTY_AT_BYTES = 64 * 1024;
const CHUNK = 1024 * 1024;

/** Takes `<file>.reader` unless a live process holds it. */
function takeReader(lockFile: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx", mode: 0o600 });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(readFileSync(lockFile, "utf8").trim());
      if (holder === process.pid) return true;
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) return false;
      // Its process is gone: take it over.
      try {
        unlinkSync(lockFile);
      } catch {
        // another process took it first; the next attempt says
      }
    }
  }
  return false;
}

export function startViewLog(deps: StoreDeps & { views?: ViewCounter; logger: Logger }, file: string, readMs = READ_MS): ViewLog {
  const lockFile = `${file}.reader`;
  const lookup = publicPageLookup(deps);
  let fd: number | null = null;
  let offset = 0;
  let partial = "";
  let received = 0;
  let counted = 0;
  let closed = false;
  let running: Promise<void> | null = null;

  const open = (): boolean => {
    if (fd !== null) return true;
    try {
      if (!takeReader(lockFile)) return false;
      // nginx creates the file when it starts; create it if this process comes first.
      fd = openSync(file, "a+", 0o600);
      offset = 0;
      partial = "";
      deps.logger.info({ file }, "reading nginx's view log");
      return true;
    } catch (err) {
      deps.logger.warn({ err, file }, "the view log cannot be read; trying again");
      return false;
    }
  };

  const pass = async (): Promise<void> => {
    if (!open() || fd === null) return;
    const size = fstatSync(fd).size;
    // Emptied by someone else (or replaced): start from its beginning.
    if (size < offset) offset = 0;
    const lines = new Map<string, number>();
    const buf = Buffer.allocUnsafe(CHUNK);
    while (offset < size) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, size - offset), offset);
      if (n <= 0) break;
      offset += n;
      const text = partial + buf.toString("latin1", 0, n);
      const end = text.lastIndexOf("\n");
      partial = end < 0 ? text : text.slice(end + 1);
      if (end < 0) continue;
      for (const line of text.slice(0, end).split("\n")) if (line) lines.set(line, (lines.get(line) ?? 0) + 1);
    }
    // All of it read: empty it, unless nginx appended since (then at the next pass). The window
    // between the check and the truncation is microseconds; nginx writes whole 64 KB buffers.
    if (partial === "" && offset >= EMPTY_AT_BYTES && fstatSync(fd).size === offset) {
      ftruncateSync(fd, 0);
      offset = 0;
    }
    await Promise.all(
      [...lines].map(async ([line, times]) => {
        received += times;
        const read = parseViewBody(line);
        if (read && (await countLoggedRead(deps.views, lookup, read, times))) counted += times;
      }),
    );
  };

  const readNow = (): Promise<void> => {
    const run = async (): Promise<void> => {
      if (running) await running;
      await pass();
    };
    const r = run()
      .catch((err: unknown) => deps.logger.warn({ err, file }, "reading the view log failed"))
      .finally(() => {
        if (running === r) running = null;
      });
    running = r;
    return r;
  };
  const timer = setInterval(() => {
    if (!closed) void readNow();
  }, readMs);
  timer.unref();
  void readNow();

  return {
    get received() {
      return received;
    },
    get counted() {
      return counted;
    },
    get reading() {
      return fd !== null;
    },
    readNow,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await readNow();
      if (fd !== null) {
        closeSync(fd);
        fd = null;
        try {
          if (readFileSync(lockFile, "utf8").trim() === String(process.pid)) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      }
    },
  };
}
