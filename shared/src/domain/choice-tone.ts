// The colour a choice (a select column's option) is shown in, in the app's grid and on the
// published page alike. A colour should say something true or nothing: words that name a
// state get the colour of that state ("done" green, "doing" blue, "blocked" amber, "todo"
// grey), and every other choice a quiet hue by its place in the list. No choice is ever
// shown in the red the app keeps for destructive actions and errors.
// Pure and browser-safe.

export const CHOICE_TONES = ["ok", "info", "warn", "muted", "violet", "teal", "slate", "olive"] as const;
export type ChoiceTone = (typeof CHOICE_TONES)[number];

const PALETTE: ChoiceTone[] = ["violet", "teal", "slate", "olive"];

const MEANINGS: [ChoiceTone, string[]][] = [
  [
    "ok",
    [
      "done",
      "complete",
      "completed",
      "finished",
      "shipped",
      "closed",
      "resolved",
      "fixed",
      "approved",
      "accepted",
      "yes",
      "live",
      "published",
      "merged",
      "paid",
      "delivered",
      "passed",
      "ready",
      "ok",
    ],
  ],
  ["info", ["doing", "in progress", "active", "started", "ongoing", "wip", "in review", "review", "reviewing", "working", "underway", "open"]],
  ["warn", ["blocked", "waiting", "on hold", "paused", "at risk", "overdue", "late", "failed", "rejected", "stuck", "urgent", "needs review", "needs work"]],
  [
    "muted",
    [
      "todo",
      "to do",
      "backlog",
      "new",
      "draft",
      "idea",
      "later",
      "planned",
      "none",
      "cancelled",
      "canceled",
      "won't do",
      "wont do",
      "wontfix",
      "no",
      "n/a",
      "archived",
      "not started",
    ],
  ],
];

const BY_WORD = new Map(MEANINGS.flatMap(([tone, words]) => words.map((w) => [w, tone] as const)));

function meaningOf(choice: string): ChoiceTone | undefined {
  const key = choice
    .normalize("NFC")
    .toLocaleLowerCase("en")
    .replace(/[\s_-]+/g, " ")
    .replace(/[’']/g, "'")
    .trim();
  return BY_WORD.get(key) ?? BY_WORD.get(key.replace(/ /g, ""));
}

/**
 * The tone of `choice` among a column's `options`: its meaning when it names a state, else
 * a palette hue by its place among the options that name none (so neighbours differ). A
 * value that is not (or no longer) an option is muted.
 */
export function choiceTone(choice: string, options: readonly string[]): ChoiceTone {
  const meant = meaningOf(choice);
  if (meant) return meant;
  const plain = options.filter((o) => !meaningOf(o));
  const index = plain.indexOf(choice);
  return index < 0 ? "muted" : (PALETTE[index % PALETTE.length] ?? "muted");
}
