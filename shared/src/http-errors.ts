// The one place an HTTP process turns a failure into an answer — used by the server, the
// sidecar and the /mcp gate: {error, error_description[, details]} with the status from the
// shared table; anything unexpected is a logged 500 with no detail.
import type { ServerResponse } from "node:http";
import { httpAnswerOf, internalAnswer, type HttpAnswer } from "./errors";
import type { Logger } from "./logger";

export function sendHttpAnswer(res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
  const body = JSON.stringify(answer.body);
  res.statusCode = answer.status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** Answers `err`; logs it (without request detail) when it is not one of ours. */
export function sendError(res: ServerResponse, err: unknown, logger: Logger): void {
  const answer = httpAnswerOf(err);
  if (!answer) logger.error({ err }, "unhandled error");
  sendHttpAnswer(res, answer ?? internalAnswer());
}

/** Express error middleware (four arguments, so Express knows it handles errors). */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, _req: unknown, res: ServerResponse, _next: unknown): void => sendError(res, err, logger);
}
