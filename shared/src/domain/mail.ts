// Mail: SMTP through nodemailer when SMTP_URL is set; otherwise a development outbox (each
// message written to DATA_DIR/outbox as .eml and printed to the console for the developer).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config";
import type { CodePurpose } from "../db/index";
import { unlinkableText } from "./display-text";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "DATA_DIR">,
  print: (text: string) => void = (t) => process.stdout.write(t),
): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const dir = path.join(config.DATA_DIR, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.to.replace(/[^a-z0-9@.-]/gi, "_")}.eml`);
      writeFileSync(file, info.message as Buffer);
      print(`\n── dev outbox (no SMTP_URL) ── to ${mail.to} ── ${mail.subject}\n${mail.text}\n── saved as ${file}\n\n`);
    },
    close: () => {},
  };
}

const PURPOSE_TEXT: Record<CodePurpose, { subject: string; line: string }> = {
  sign_in: { subject: "Your Atelier sign-in code", line: "Use this code to sign in to Atelier" },
  claim: {
    subject: "Your code to claim an agent's Atelier sandbox",
    line: "An AI agent asked to hand its Atelier sandbox over to this address. Use this code to claim it",
  },
  verified_email: {
    subject: "Your code to connect an agent to Atelier",
    line: "An AI agent asked for an Atelier access token for this address. Use this code to approve it",
  },
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The message that carries a one-time code: what it is for and when it expires. */
export function codeMail(input: { purpose: CodePurpose; to: string; code: string; ttlSeconds: number; baseUrl: string }): Mail {
  const { subject, line } = PURPOSE_TEXT[input.purpose];
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60));
  const expiry = `It expires in ${minutes} minute${minutes === 1 ? "" : "s"} and works once.`;
  const ignore = "If you did not ask for it, ignore this message; nothing happens without the code.";
  const text = `${line}:\n\n    ${input.code}\n\n${expiry}\n${ignore}\n\n${input.baseUrl}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1d21">
<p>${escapeHtml(line)}:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,monospace">${input.code}</p>
<p>${escapeHtml(expiry)}</p>
<p style="color:#60646c">${escapeHtml(ignore)}</p>
<p style="color:#60646c"><a href="${escapeHtml(input.baseUrl)}">${escapeHtml(input.baseUrl)}</a></p>
</body></html>`;
  return { to: input.to, subject, text, html };
}

/**
 * The message a person gets when added to a workspace: who added them (the inviter's verified
 * address, and an agent's name when an agent did it), to what, with which role, and the link.
 * Whatever the inviter chose (the workspace's name, an agent's name) stays out of the subject
 * and is shown inert in the body (`unlinkableText`: nothing clickable, nothing invisible), so
 * an invitation cannot be made into a phishing mail that looks like ours. It carries no
 * secret: signing in with this address (a code by e-mail) is what proves it is theirs, so a
 * forwarded invitation opens nothing.
 */
export function invitationMail(input: {
  to: string;
  /** The verified address of the person who invited them (or for whom the agent acts). */
  inviterEmail: string;
  /** The agent that sent the invitation, by its own (untrusted) name; null for a person. */
  agentLabel: string | null;
  workspaceName: string;
  role: string;
  link: string;
  hasAccount: boolean;
}): Mail {
  const subject = "You were added to a workspace on Atelier";
  const workspace = unlinkableText(input.workspaceName, 100);
  const who = input.agentLabel === null ? input.inviterEmail : `An AI agent (“${unlinkableText(input.agentLabel, 60)}”) acting for ${input.inviterEmail}`;
  const can = input.role === "viewer" ? "read its pages" : input.role === "owner" ? "read, edit and manage it" : "read and edit its pages";
  const line = `${who} added you to the Atelier workspace “${workspace}” as ${input.role === "owner" ? "an owner" : `an ${input.role}`}: you can ${can}, and so can the AI agents you connect.`;
  const named = "The workspace’s name was written by whoever made it, not by Atelier; we never ask for anything in a name.";
  const next = input.hasAccount
    ? "Open it here:"
    : "Sign in with this e-mail address to join (no password; we send you a code). Until then the invitation is pending:";
  const ignore = "If you don’t know them, ignore this message: nothing happens unless you sign in.";
  const text = `${line}\n${named}\n\n${next}\n\n    ${input.link}\n\n${ignore}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1d21">
<p>${escapeHtml(line)}</p>
<p style="color:#60646c">${escapeHtml(named)}</p>
<p>${escapeHtml(next)}</p>
<p><a href="${escapeHtml(input.link)}" style="font-weight:600">${escapeHtml(input.link)}</a></p>
<p style="color:#60646c">${escapeHtml(ignore)}</p>
</body></html>`;
  return { to: input.to, subject, text, html };
}
