// Structured logs (pino). Secrets never reach a log line: credentials, cookies, codes and
// OTPs are redacted wherever they appear, and request bodies are never logged.
import { pino, type Logger, type LoggerOptions } from "pino";

export type { Logger };

export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "*.authorization",
  "*.cookie",
  "*.credential",
  "*.secret",
  "*.otp",
  "*.code",
  "*.claim_token",
  "*.sessionId",
  "*.password",
  "*.SECRET_KEY",
];

/**
 * Standard output, written asynchronously in blocks of 4 KB (and whatever is left at exit):
 * for request lines on a hot path, where a synchronous write per request costs more than
 * answering it.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096 });
}

/**
 * A logger. `redact: false` is only for request lines, whose fields are fixed and never hold
 * a secret (id, method, loggablePath, status, time): redaction copies every object logged,
 * which on the MCP endpoint was a twelfth of all it allocated per request.
 */
export function createLogger(opts: { name: string; level: string; destination?: pino.DestinationStream; redact?: false }): Logger {
  const options: LoggerOptions = {
    name: opts.name,
    level: opts.level,
    ...(opts.redact === false ? {} : { redact: { paths: REDACT_PATHS, censor: "[redacted]" } }),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
