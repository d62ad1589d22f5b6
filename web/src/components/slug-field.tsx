// The name-plus-slug pair of every "new …" form (workspace, page, table): the slug follows
// the name as it is typed, until the person edits the slug by hand.
import { type ReactNode, type Ref, useState } from "react";
import { SLUG_MAX, slugify } from "../lib/slug";
import { Field } from "./field";

/** `onEdit` runs on every change to either (to forget a refused try, say). */
export function useNameAndSlug(onEdit?: () => void) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  return {
    name,
    slug,
    changeName(value: string) {
      setName(value);
      if (!slugEdited) setSlug(slugify(value));
      onEdit?.();
    },
    changeSlug(value: string) {
      setSlug(value);
      setSlugEdited(value !== "");
      onEdit?.();
    },
    reset() {
      setName("");
      setSlug("");
      setSlugEdited(false);
    },
  };
}

/** The slug input, in monospace, with the rule in its hint and an optional fixed prefix ("/a/"). */
export function SlugField({
  label = "Address",
  prefix,
  hint,
  placeholder,
  value,
  onChange,
  error,
  inputRef,
}: {
  label?: string;
  prefix?: string;
  hint: ReactNode;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => {
        const input = (
          <input
            ref={inputRef}
            {...control}
            className="field__input field__input--mono"
            value={value}
            maxLength={SLUG_MAX + 10}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder={placeholder}
            onChange={(e) => onChange(e.target.value)}
          />
        );
        return prefix ? (
          <div className="input-prefix">
            <span className="input-prefix__text" aria-hidden="true">
              {prefix}
            </span>
            {input}
          </div>
        ) : (
          input
        );
      }}
    </Field>
  );
}
