// The whole sign-in flow: an e-mail address, then the six-digit code mailed to it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useLocation } from "wouter";
import { goToNext } from "../../lib/safe-next";
import { useTRPC } from "../../trpc";
import { BrandMark } from "../brand";
import { CodeStep, type SentCode } from "./code-step";
import { EmailStep } from "./email-step";
import { looksLikeEmail, requestCodeError, verifyCodeError } from "./sign-in-messages";
import "./sign-in.css";

/**
 * What the sign-in step says when it stands in front of something particular (an app asking
 * to connect): its own heading and lead, and what to show above them.
 */
export interface SignInContext {
  title: string;
  lead: string;
  above?: ReactNode;
}

export function SignInScreen({
  next = "/",
  notice = null,
  email: knownEmail = "",
  context,
}: {
  next?: string;
  notice?: string | null;
  /** An address to start with (after an expired session), still changeable. */
  email?: string;
  context?: SignInContext;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  const [email, setEmail] = useState(knownEmail);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [sent, setSent] = useState<SentCode | null>(null);
  const [resent, setResent] = useState(false);

  const request = useMutation(trpc.auth.requestCode.mutationOptions());
  const verify = useMutation(
    trpc.auth.verifyCode.mutationOptions({
      onSuccess: async ({ user }) => {
        queryClient.setQueryData(trpc.me.get.queryKey(), user);
        await queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });
        goToNext(next, navigate);
      },
    }),
  );

  const sendCode = (address: string, isResend: boolean) => {
    verify.reset();
    request.mutate(
      { email: address },
      {
        onSuccess: ({ expiresAt }) => {
          setSent({ email: address, expiresAt, sentAt: Date.now() });
          setResent(isResend);
        },
      },
    );
  };

  const submitEmail = () => {
    const address = email.trim();
    if (!address) {
      setCheckError("Enter your e-mail address.");
      return;
    }
    if (!looksLikeEmail(address)) {
      setCheckError("That doesn’t look like an e-mail address. Check it for typos and try again.");
      return;
    }
    setCheckError(null);
    sendCode(address, false);
  };

  const chooseAnotherAddress = () => {
    request.reset();
    verify.reset();
    setSent(null);
    setResent(false);
  };

  return (
    <div className="auth">
      <section className="auth__intro" aria-label="About Atelier">
        <div className="auth__brand">
          <BrandMark size={36} />
          <span>Atelier</span>
        </div>
        <p className="auth__tagline">A shared workspace where people and AI agents keep living documents.</p>
        <ul className="auth__features">
          <li>
            <span className="auth__feature-icon" aria-hidden="true">
              M↓
            </span>
            Markdown pages that stay current
          </li>
          <li>
            <span className="auth__feature-icon" aria-hidden="true">
              &lt;/&gt;
            </span>
            HTML pages you can publish
          </li>
          <li>
            <span className="auth__feature-icon" aria-hidden="true">
              ▦
            </span>
            Small tables agents keep up to date
          </li>
        </ul>
      </section>
      <main className="auth__card">
        {sent ? (
          <CodeStep
            sent={sent}
            resent={resent}
            onVerify={(code) => verify.mutate({ email: sent.email, code })}
            onCodeInput={() => {
              if (verify.isError) verify.reset();
              if (request.isError) request.reset();
            }}
            verifying={verify.isPending}
            verifyError={verify.error ? verifyCodeError(verify.error) : null}
            signedIn={verify.isSuccess}
            onResend={() => sendCode(sent.email, true)}
            resending={request.isPending}
            resendError={request.error ? requestCodeError(request.error) : null}
            onUseAnotherAddress={chooseAnotherAddress}
          />
        ) : (
          <EmailStep
            email={email}
            onEmailChange={(value) => {
              setEmail(value);
              if (checkError) setCheckError(null);
              if (request.isError) request.reset();
            }}
            onSubmit={submitEmail}
            sending={request.isPending}
            error={checkError ?? (request.error ? requestCodeError(request.error) : null)}
            notice={request.isIdle ? notice : null}
            context={context}
          />
        )}
      </main>
    </div>
  );
}
