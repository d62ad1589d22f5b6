import { Link } from "wouter";

export function NotFoundPage() {
  return (
    <div className="not-found">
      <title>Not found · Atelier</title>
      <h1 className="page-header__title">There’s nothing here</h1>
      <p className="page-header__lead">The address may be mistyped, or the page has moved.</p>
      <Link href="/" className="button button--primary">
        Go to your home page
      </Link>
    </div>
  );
}
