// Identity assertions for the verified-email preview (docs/contract.md#registration-and-claim): a JWT from a trusted
// issuer, for this server, about a verified address, fresh, and accepted once.
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Config, TrustedIssuer } from "../config";
import type { Database } from "../db/index";
import { AppError, isDuplicateKey } from "../errors";
import { nowMs } from "./clock";
import { normalizeEmail } from "./users";

const MAX_LIFETIME_SECONDS = 600;
const CLOCK_TOLERANCE_SECONDS = 30;
const ACCEPTED_TYP = new Set(["JWT", "oauth-id-jag+jwt", "application/oauth-id-jag+jwt"]);

// Key sets are built once per issuer per process; jose caches and refreshes remote keys itself.
const keySets = new Map<string, JWTVerifyGetKey>();

function keySetFor(issuer: TrustedIssuer): JWTVerifyGetKey {
  const cacheKey = JSON.stringify(issuer);
  let ks = keySets.get(cacheKey);
  if (!ks) {
    ks =
      "jwks_uri" in issuer
        ? createRemoteJWKSet(new URL(issuer.jwks_uri), { timeoutDuration: 5_000, cooldownDuration: 30_000 })
        : createLocalJWKSet(issuer.jwks as Parameters<typeof createLocalJWKSet>[0]);
    keySets.set(cacheKey, ks);
  }
  return ks;
}

function bad(why: string): AppError {
  return new AppError("invalid_assertion", `The identity assertion was refused: ${why}.`);
}

export async function verifyIdentityAssertion(
  deps: { database: Database; config: Pick<Config, "BASE_URL" | "TRUSTED_ASSERTION_ISSUERS"> },
  jwt: string,
): Promise<{ email: string; issuer: string; subject: string | undefined }> {
  const { database, config } = deps;
  let iss: string | undefined;
  let typ: string | undefined;
  try {
    iss = decodeJwt(jwt).iss;
    typ = decodeProtectedHeader(jwt).typ;
  } catch {
    throw bad("it is not a JWT");
  }
  if (typ !== undefined && !ACCEPTED_TYP.has(typ)) throw bad(`its type "${typ}" is not accepted`);
  const issuer = config.TRUSTED_ASSERTION_ISSUERS.find((i) => i.issuer === iss);
  if (!issuer) throw bad("its issuer is not trusted here");

  let payload;
  try {
    ({ payload } = await jwtVerify(jwt, keySetFor(issuer), {
      issuer: issuer.issuer,
      audience: config.BASE_URL,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(nowMs()),
      requiredClaims: ["exp", "iat", "jti"],
    }));
  } catch (err) {
    const code = (err as { code?: string }).code ?? "";
    throw bad(
      code === "ERR_JWT_EXPIRED"
        ? "it has expired"
        : code === "ERR_JWT_CLAIM_VALIDATION_FAILED"
          ? `the ${(err as { claim?: string }).claim ?? "claims"} claim is wrong`
          : "its signature or claims could not be verified",
    );
  }
  const t = nowMs() / 1000;
  const exp = payload.exp ?? 0;
  if (exp > t + MAX_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) throw bad("it is valid for more than 10 minutes");
  if ((payload.iat ?? 0) > t + CLOCK_TOLERANCE_SECONDS) throw bad("it is issued in the future");
  if (payload.email_verified !== true) throw bad("the address is not verified (email_verified)");
  if (typeof payload.email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(payload.email) || payload.email.length > 254) throw bad("it carries no e-mail address");
  if (typeof payload.jti !== "string" || payload.jti.length === 0 || payload.jti.length > 200) throw bad("it has no jti");

  // Accepted once: the jti is kept until the assertion would have expired anyway.
  try {
    await database.c.assertionReplays.insertOne({ _id: `${issuer.issuer}|${payload.jti}`, expiresAt: new Date(exp * 1000) });
  } catch (err) {
    if (isDuplicateKey(err)) throw bad("it has already been used");
    throw err;
  }
  return { email: normalizeEmail(payload.email), issuer: issuer.issuer, subject: payload.sub };
}
