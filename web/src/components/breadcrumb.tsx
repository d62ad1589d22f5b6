import { Fragment } from "react";
import { Link } from "wouter";
import "./breadcrumb.css";

/** Where this screen sits: links up the way, the last item the current screen. */
export function Breadcrumb({ trail, current }: { trail: { href: string; label: string }[]; current: string }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      {trail.map((step) => (
        <Fragment key={step.href}>
          <Link href={step.href}>{step.label}</Link>
          <span aria-hidden="true">/</span>
        </Fragment>
      ))}
      <span aria-current="page">{current}</span>
    </nav>
  );
}
