// A real SMTP server for the stack: every message the app sends is written to a folder as
// one JSON file, so the Playwright workers (other processes) can read it (tests/support/mail.ts).
import { renameSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface StoredMail {
  to: string[];
  from: string;
  receivedAt: number;
  raw: string;
}

export interface MailCapture {
  url: string;
  count(): number;
  close(): Promise<void>;
}

export async function startMailCapture(dir: string): Promise<MailCapture> {
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail: StoredMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          receivedAt: Date.now(),
          raw: Buffer.concat(chunks).toString("utf8"),
        };
        const name = `${String(++seq).padStart(6, "0")}.json`;
        // Written under a temporary name and renamed, so a reader never sees half a file.
        writeFileSync(path.join(dir, `.${name}`), JSON.stringify(mail));
        renameSync(path.join(dir, `.${name}`), path.join(dir, name));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => seq,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
