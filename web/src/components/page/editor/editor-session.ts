// The page editor's state, as one reducer: the version it builds on (base), what is typed
// (draft), and what a save that raced someone else's left on screen (their version to choose
// against, the person's own text after taking theirs, their text for reference while
// combining by hand). Pure, so every transition is tested without a browser.
import { type Draft, draftOf, keepMine, type StoredDraft, sameDraft, storedAsDraft } from "../../../lib/draft";
import type { RouterOutputs } from "../../../trpc";

export type PageView = RouterOutputs["pages"]["get"];

export interface EditorSession {
  /** The version the draft builds on: the one editing started from, or the last one saved or chosen. */
  base: PageView;
  draft: Draft;
  /** Someone saved meanwhile: their version, shown beside the draft until the person chooses. */
  conflict: PageView | null;
  /** Why the conflict can't be shown or resolved (their version didn't load, the save failed). */
  conflictError: string | null;
  /** After "Take theirs": the person's own draft, to copy from or put back. */
  discarded: Draft | null;
  /** After "Combine by hand": their version, shown for reference. */
  reference: PageView | null;
  /** The version the last save made, for the status line. */
  savedVersion: number | null;
  /** The last save merged the person's draft with someone else's version (whose, which). */
  merged: { with: PageView["updated_by"]; version: number } | null;
}

export type EditorAction =
  | { type: "edit"; change: Partial<Draft> }
  | { type: "restore-stored"; stored: StoredDraft }
  /** Nothing differs from `over`: adopt it as the base, with `next` as the draft. */
  | { type: "adopt"; over: PageView; next: Draft }
  | { type: "sending" }
  /** `saved` is what the server made of `sent`; typing may have gone on meanwhile. */
  | { type: "saved"; saved: PageView; sent: Draft }
  | { type: "conflict"; theirs: PageView }
  | { type: "conflict-failed"; message: string }
  /** Their version and the draft combined without overlap: `merged` is sent over `theirs`. */
  | { type: "merge"; theirs: PageView; merged: Draft; from: Draft }
  /** Keep mine: the merge of both sides becomes the draft (and is sent over theirs). */
  | { type: "keep-mine"; merged: Draft }
  | { type: "take-theirs" }
  | { type: "combine" }
  | { type: "load"; page: PageView }
  /** The page took a new address (no new version): later saves go to it. */
  | { type: "moved"; slug: string }
  | { type: "put-back" }
  | { type: "dismiss-discarded" }
  | { type: "hide-reference" };

export function startSession(page: PageView): EditorSession {
  return { base: page, draft: draftOf(page), conflict: null, conflictError: null, discarded: null, reference: null, savedVersion: null, merged: null };
}

export function editorReducer(state: EditorSession, action: EditorAction): EditorSession {
  switch (action.type) {
    case "edit":
      return { ...state, draft: { ...state.draft, ...action.change }, merged: null };
    case "restore-stored":
      return { ...state, draft: storedAsDraft(action.stored, state.draft) };
    case "adopt":
      return { ...state, base: action.over, draft: action.next, conflict: null };
    case "sending":
      return { ...state, conflictError: null };
    case "merge":
      return {
        ...state,
        // Typing may have gone on while the save was away: then the draft stays as typed.
        draft: sameDraft(state.draft, action.from) ? action.merged : state.draft,
        merged: { with: action.theirs.updated_by, version: action.theirs.version },
      };
    case "saved":
      return {
        ...state,
        base: action.saved,
        conflict: null,
        reference: null,
        savedVersion: action.saved.version,
        // Typing may have gone on during the save: keep it, it is simply not saved yet.
        draft: sameDraft(state.draft, action.sent) ? draftOf(action.saved) : state.draft,
      };
    case "conflict":
      return { ...state, conflict: action.theirs };
    case "conflict-failed":
      return { ...state, conflictError: action.message };
    case "keep-mine":
      return { ...state, draft: action.merged };
    case "take-theirs":
      if (!state.conflict) return state;
      return { ...state, discarded: state.draft, base: state.conflict, draft: draftOf(state.conflict), conflict: null };
    case "combine":
      if (!state.conflict) return state;
      return {
        ...state,
        draft: keepMine(draftOf(state.base), state.draft, draftOf(state.conflict)),
        base: state.conflict,
        reference: state.conflict,
        conflict: null,
      };
    case "load":
      return { ...state, base: action.page, draft: draftOf(action.page) };
    case "moved":
      return { ...state, base: { ...state.base, slug: action.slug } };
    case "put-back":
      return state.discarded ? { ...state, draft: state.discarded, discarded: null } : state;
    case "dismiss-discarded":
      return { ...state, discarded: null };
    case "hide-reference":
      return { ...state, reference: null };
  }
}

/** The editor's status line. */
export function statusOf(state: EditorSession, saving: boolean, dirty: boolean): string {
  if (saving) return "Saving…";
  if (state.conflict) return "Not saved: this page changed meanwhile";
  if (dirty) return "Unsaved changes";
  if (state.savedVersion !== null) return `Saved as version ${state.savedVersion}`;
  return `Editing version ${state.base.version}`;
}
