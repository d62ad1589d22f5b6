// A small HTTP API on loopback through which the Playwright workers (other processes) inject
// faults into the stack the runner owns: kill or restart a server or sidecar, stop or start
// the database. tests/support/stack.ts is its client.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ManagedProcess } from "./processes";

export interface ControlTarget {
  processes: Map<string, ManagedProcess>;
  stopDb(): Promise<void>;
  startDb(): Promise<void>;
  /** Every injected fault, for the report. */
  faults: { at: string; what: string }[];
}

const SIGNALS = new Set(["SIGKILL", "SIGTERM", "SIGINT"]);

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startControlServer(target: ControlTarget): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    void (async () => {
      try {
        const url = new URL(req.url ?? "/", "http://control");
        const m = /^\/processes\/([a-z0-9-]+)\/(kill|start)$/.exec(url.pathname);
        if (req.method === "GET" && url.pathname === "/processes") {
          return reply(
            200,
            [...target.processes.values()].map((p) => ({ name: p.name, running: p.running, pid: p.pid ?? null, starts: p.starts })),
          );
        }
        if (req.method === "POST" && m?.[1] && m[2]) {
          const proc = target.processes.get(m[1]);
          if (!proc) return reply(404, { error: `no process ${m[1]}` });
          if (m[2] === "kill") {
            const body = await readJson(req);
            const signal = typeof body.signal === "string" && SIGNALS.has(body.signal) ? (body.signal as NodeJS.Signals) : "SIGKILL";
            target.faults.push({ at: new Date().toISOString(), what: `${signal} ${proc.name}` });
            await proc.kill(signal);
          } else {
            await proc.start();
          }
          return reply(200, { name: proc.name, running: proc.running });
        }
        if (req.method === "POST" && url.pathname === "/db/stop") {
          target.faults.push({ at: new Date().toISOString(), what: "database stopped" });
          await target.stopDb();
          return reply(200, { db: "stopped" });
        }
        if (req.method === "POST" && url.pathname === "/db/start") {
          await target.startDb();
          return reply(200, { db: "running" });
        }
        return reply(404, { error: "unknown control route" });
      } catch (err) {
        return reply(500, { error: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
