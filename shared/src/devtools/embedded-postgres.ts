// The PostgreSQL cluster behind FerretDB when EMBEDDED_DB_BACKEND=postgresql: Debian's
// `postgresql` package (never a download), a cluster of our own created with initdb in the
// data folder on first use, reached only through a unix socket in that folder (no TCP port,
// so it never meets the system's cluster on 5432), and stopped with the app.
import { processAlive } from "../process";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export class PostgresError extends Error {
  override name = "PostgresError";
}

export interface EmbeddedPostgres {
  /** postgres:// URL for FerretDB (the socket folder as host). */
  url: string;
  /** The postmaster's pid; every backend is its child. */
  pid: number;
  /** Where the cluster is: the folder asked for, or its stand-in when the postgres user cannot reach that one. */
  dir: string;
  stop(): Promise<void>;
}

/** Whether `user` can reach (search) `folder`: every folder above it, and it, open to that user. */
function reachableBy(user: { uid: number; gid: number }, folder: string): boolean {
  return spawnSync("test", ["-x", folder], { uid: user.uid, gid: user.gid }).status === 0;
}

/**
 * Where the cluster goes. As root it runs as `postgres`, which cannot reach a folder under a
 * 0700 parent (a clone under /root, issue 23 item 18): then it lives in a stand-in under the
 * system's temporary folder, named after the folder asked for (the same one every run).
 */
export function clusterDir(dir: string, user: { uid: number; gid: number } | undefined): { dir: string; relocated: boolean } {
  if (!user) return { dir, relocated: false };
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  if (reachableBy(user, parent)) return { dir, relocated: false };
  const standIn = path.join(tmpdir(), `atelier-postgresql-${createHash("sha256").update(dir).digest("hex").slice(0, 16)}`);
  return { dir: standIn, relocated: true };
}

const INSTALL_HINT =
  "PostgreSQL is not installed. On Debian or Ubuntu: `apt-get install -y postgresql` " +
  "(or run `EMBEDDED_DB_BACKEND=postgresql pnpm setup`), or set EMBEDDED_DB_BACKEND=sqlite.";

/** The folder holding `initdb` and `postgres`: Debian's newest /usr/lib/postgresql/N/bin, else PATH. */
export function findPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, "bin/postgres")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres"))) return dir;
  }
  return null;
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user Debian's package creates. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) {
    throw new PostgresError("Running as root, and PostgreSQL will not run as root: there is no `postgres` user to run it as. " + INSTALL_HINT);
  }
  return { uid: Number(uid), gid: Number(gid) };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** postmaster.pid: line 1 the pid, line 8 the status ("ready" once connections are accepted). */
function pidFile(dir: string): { pid: number; status: string } | null {
  try {
    const lines = readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n");
    return { pid: Number(lines[0]), status: (lines[7] ?? "").trim() };
  } catch {
    return null;
  }
}

/**
 * Starts the cluster in `dir` (created with initdb when empty). A server left running on the
 * same folder by a run that was killed is stopped first: the folder is ours alone.
 */
export async function startPostgres(opts: { dir: string; log?: (line: string) => void; temporary?: boolean }): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const bin = findPostgresBin();
  if (!bin) throw new PostgresError(INSTALL_HINT);
  const user = serverUser();
  const placed = clusterDir(path.resolve(opts.dir), user);
  const dir = placed.dir;
  if (placed.relocated) {
    log(
      `the postgres user (PostgreSQL's, as this runs as root) cannot reach ${path.dirname(path.resolve(opts.dir))} (a folder above it is closed to others); ` +
        `the cluster lives in ${dir} instead`,
    );
  }
  mkdirSync(path.dirname(dir), { recursive: true });
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);

  const asServer = { ...(user ?? {}), env: { ...process.env, LC_ALL: "C", TZ: "UTC" } };
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    log(`creating a PostgreSQL cluster in ${dir} (first run only)…`);
    // Trust over the socket only: the socket lives in this 0700 folder, so only its owner (and root) can reach it.
    const r = spawnSync(path.join(bin, "initdb"), ["-D", dir, "-U", "atelier", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], {
      ...asServer,
      encoding: "utf8",
    });
    if (r.status !== 0) {
      throw new PostgresError(
        `initdb failed (${r.status ?? r.signal ?? r.error?.message}). ` +
          (user ? `As root, PostgreSQL runs as the postgres user, which must be able to reach ${dir}. ` : "") +
          `\n${r.stdout ?? ""}${r.stderr ?? ""}`,
      );
    }
  }

  const left = pidFile(dir);
  if (left && left.pid > 0 && processAlive(left.pid)) {
    log(`stopping a PostgreSQL server left running on ${dir} (pid ${left.pid})`);
    process.kill(left.pid, "SIGINT");
    if (!(await waitFor(() => !processAlive(left.pid), 30_000)))
      throw new PostgresError(`The PostgreSQL server left running on ${dir} (pid ${left.pid}) did not stop.`);
  }

  let out = "";
  const child: ChildProcess = spawn(
    path.join(bin, "postgres"),
    ["-D", dir, "-c", "listen_addresses=", "-c", `unix_socket_directories=${dir}`, "-c", "unix_socket_permissions=0700"],
    // In its launcher's process group, like FerretDB: a Ctrl-C reaches it directly (a fast
    // shutdown), even when the launcher exits before its own stop() has run.
    { ...asServer, stdio: ["ignore", "pipe", "pipe"] },
  );
  const keep = (b: Buffer) => {
    out = (out + b.toString("utf8")).slice(-8_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const pid = child.pid;
  if (pid === undefined) throw new PostgresError(`Could not start ${path.join(bin, "postgres")}.`);

  const ready = await waitFor(() => !running() || (pidFile(dir)?.pid === pid && pidFile(dir)?.status === "ready"), 60_000);
  if (!ready || !running()) {
    if (running()) child.kill("SIGQUIT");
    throw new PostgresError(`PostgreSQL did not start (${child.exitCode ?? child.signalCode ?? "timeout"}):\n${out}`);
  }

  let stopping: Promise<void> | null = null;
  return {
    url: `postgres://atelier@/postgres?host=${encodeURIComponent(dir)}`,
    pid,
    dir,
    stop() {
      stopping ??= (async () => {
        if (running()) {
          child.kill("SIGINT"); // fast shutdown: ends sessions, writes a checkpoint
          const timer = setTimeout(() => child.kill("SIGQUIT"), 30_000);
          await exited;
          clearTimeout(timer);
        }
        // A stand-in is outside the data folder its owner deletes: a temporary one goes with it.
        if (placed.relocated && opts.temporary) rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
