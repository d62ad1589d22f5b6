import type { ReactNode } from "react";
import { Link } from "wouter";
import "./not-found.css";

/** "There's nothing here": what could not be found, why that may be, and where to go instead. */
export function NotFound({ title, action, children }: { title: string; action: { href: string; label: string }; children: ReactNode }) {
  return (
    <div className="not-found">
      <title>Not found · Atelier</title>
      <h1 className="page-header__title">{title}</h1>
      <p className="page-header__lead">{children}</p>
      <Link href={action.href} className="button button--primary">
        {action.label}
      </Link>
    </div>
  );
}
