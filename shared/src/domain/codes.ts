// One-time six-digit codes: sign-in codes and claim OTPs (docs/contract.md#sign-in-codes) use this one module.
// Only a keyed hash is stored; a code expires, is single use, and five wrong tries burn it.
import type { CodePurpose, Database } from "../db/index";
import { AppError, isDuplicateKey } from "../errors";
import { hmac, newId, newSixDigitCode, sameDigest } from "../ids";
import { addSeconds, now } from "./clock";

export const MAX_CODE_ATTEMPTS = 5;

function codeHash(secretKey: string, purpose: CodePurpose, subject: string, code: string): string {
  return hmac(secretKey, `${purpose}\u0000${subject}\u0000${code}`);
}

/**
 * Issues a fresh code for (purpose, subject), replacing any earlier one, and returns it in
 * clear so the caller can e-mail it. Send limits are the caller's to check first.
 */
export async function issueCode(
  deps: { database: Database; config: { SECRET_KEY: string } },
  input: { purpose: CodePurpose; subject: string; email: string; ttlSeconds: number },
): Promise<{ code: string; expiresAt: Date }> {
  const { database } = deps;
  const secretKey = deps.config.SECRET_KEY;
  const code = newSixDigitCode();
  const t = now();
  const expiresAt = addSeconds(t, input.ttlSeconds);
  const fields = {
    email: input.email,
    codeHash: codeHash(secretKey, input.purpose, input.subject, code),
    attempts: 0,
    usedAt: null,
    expiresAt,
    createdAt: t,
  };
  const filter = { purpose: input.purpose, subject: input.subject };
  try {
    await database.c.loginCodes.updateOne(filter, { $set: fields, $setOnInsert: { _id: newId("otp") } }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await database.c.loginCodes.updateOne(filter, { $set: fields });
  }
  return { code, expiresAt };
}

/**
 * Checks a code. Every try counts, right or wrong, and is counted before the comparison,
 * so parallel guesses cannot get more than five tries. Exactly one caller can consume a
 * right code. Returns the e-mail address the code was sent to.
 */
export async function consumeCode(
  deps: { database: Database; config: { SECRET_KEY: string } },
  input: { purpose: CodePurpose; subject: string; code: string },
): Promise<{ email: string }> {
  const { database } = deps;
  const secretKey = deps.config.SECRET_KEY;
  const invalid = () => new AppError("invalid_otp", "That code is wrong, expired or already used. Ask for a new one.");
  if (!/^\d{6}$/.test(input.code)) throw invalid();
  const t = now();
  const doc = await database.c.loginCodes.findOneAndUpdate(
    { purpose: input.purpose, subject: input.subject, usedAt: null, expiresAt: { $gt: t }, attempts: { $lt: MAX_CODE_ATTEMPTS } },
    { $inc: { attempts: 1 } },
    { returnDocument: "after" },
  );
  if (!doc) throw invalid();
  if (!sameDigest(doc.codeHash, codeHash(secretKey, input.purpose, input.subject, input.code))) throw invalid();
  const used = await database.c.loginCodes.updateOne({ _id: doc._id, usedAt: null }, { $set: { usedAt: t } });
  if (used.modifiedCount !== 1) throw invalid();
  return { email: doc.email };
}
