// A line diff for the conflict screen: which lines of each text the other one lacks.
// Longest common subsequence on lines; beyond a size where that gets slow, nothing is
// marked (both texts are still shown in full).

export interface DiffLine {
  text: string;
  /** True when this line is not in the other text at this place. */
  changed: boolean;
}

const MAX_CELLS = 4_000_000;

export function diffLines(mine: string, theirs: string): { mine: DiffLine[]; theirs: DiffLine[]; compared: boolean } {
  const a = mine.split("\n");
  const b = theirs.split("\n");
  if (a.length * b.length > MAX_CELLS) {
    return {
      mine: a.map((text) => ({ text, changed: false })),
      theirs: b.map((text) => ({ text, changed: false })),
      compared: false,
    };
  }
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const keepA = new Array<boolean>(n).fill(false);
  const keepB = new Array<boolean>(m).fill(false);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      keepA[i] = true;
      keepB[j] = true;
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return {
    mine: a.map((text, k) => ({ text, changed: !keepA[k] })),
    theirs: b.map((text, k) => ({ text, changed: !keepB[k] })),
    compared: true,
  };
}

/** How many lines of each side differ. */
export function changedCount(lines: DiffLine[]): number {
  return lines.reduce((count, line) => count + (line.changed ? 1 : 0), 0);
}
