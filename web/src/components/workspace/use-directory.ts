import { useMemo } from "react";
import type { Directory } from "../../lib/actors";
import { useMembers, useWorkspaceAgents } from "../../lib/collaboration";

/**
 * Names for the ids in actors and events: members' e-mails and the agents' names and whom
 * they act for (members can list both). For visitors, actors show their own labels.
 */
export function useDirectory(slug: string, meId: string | null, isMember: boolean): Directory {
  const members = useMembers(slug, isMember);
  const agents = useWorkspaceAgents(slug, isMember);
  return useMemo(
    () => ({
      meId,
      emails: new Map((members.data ?? []).map((m) => [m.user_id, m.email])),
      agentOwners: new Map((agents.data ?? []).map((a) => [a.token_id, a.acting_for])),
      agentLabels: new Map((agents.data ?? []).map((a) => [a.token_id, a.label])),
    }),
    [meId, members.data, agents.data],
  );
}
