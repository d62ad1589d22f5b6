import "./spinner.css";
/** A turning ring; `inline` is the small one that sits in a button's text. Decorative only. */
export function Spinner({ inline = false }: { inline?: boolean }) {
  return <span className={inline ? "spinner spinner--inline" : "spinner"} aria-hidden="true" />;
}
