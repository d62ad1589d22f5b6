import { NotFound } from "../components/not-found";

export function NotFoundScreen() {
  return (
    <NotFound title="There’s nothing here" action={{ href: "/", label: "Go to your home page" }}>
      The address may be mistyped, or the page has moved.
    </NotFound>
  );
}
