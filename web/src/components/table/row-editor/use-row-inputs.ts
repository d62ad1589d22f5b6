import { useState } from "react";
import { describeError } from "../../../lib/errors";
import { rowProblemsOf } from "../../../lib/table/server-problems";
import { type RowInputs } from "../../../lib/table/type-value";
import { type Column } from "../../../lib/table/types";

/**
 * What a row editor holds: the text of each input, the problem under each, and one message
 * for the rest. Typing into an input clears its problem and the message.
 */
export function useRowInputs(columns: Column[], initial: () => RowInputs) {
  const [inputs, setInputs] = useState<RowInputs>(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);

  const setInput = (name: string, value: string) => {
    setInputs((prev) => ({ ...prev, [name]: value }));
    if (problems[name]) setProblems(({ [name]: _gone, ...rest }) => rest);
    setOther(null);
  };

  /** The server refused the row: each problem goes under its input. Returns the first such column. */
  const showRefusal = (err: unknown): string | undefined => {
    const p = rowProblemsOf(err, columns);
    setProblems(p.fields);
    setOther(p.other ?? (Object.keys(p.fields).length > 0 ? null : describeError(err)));
    return columns.find((c) => p.fields[c.name])?.name;
  };

  return { inputs, setInputs, problems, setProblems, other, setOther, setInput, showRefusal };
}
