// The one place plain HTTP routes turn errors into answers: {error, error_description}
// with the status from the shared table; anything unknown is a logged 500 without detail.
import { AppError, translateDbError } from "@atelier/shared/errors";
import type { ErrorRequestHandler, RequestHandler } from "express";

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "not_found", error_description: "Nothing here." });
};

export const errorHandler: ErrorRequestHandler = (rawErr: unknown, req, res, _next) => {
  let err = translateDbError(rawErr);
  // body-parser errors (malformed JSON, too large, bad charset) carry a 4xx status.
  const status = (err as { status?: unknown }).status;
  if (!(err instanceof AppError) && typeof status === "number" && status >= 400 && status < 500) {
    // SPEC §7: an invalid body is a 400, whatever is wrong with it.
    err = new AppError(
      "invalid_request",
      status === 413 ? "The request body is too large." : "The request body could not be read as JSON.",
    );
  }
  if (err instanceof AppError) {
    if (err.retryAfter !== undefined) res.set("Retry-After", String(err.retryAfter));
    res.status(err.rule.http).json(err.toHttpBody());
    return;
  }
  req.log.error({ err }, "unhandled error");
  if (res.headersSent) return;
  res.status(500).json({ error: "internal_error", error_description: "Something went wrong on our side." });
};
