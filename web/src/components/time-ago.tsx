import { formatDateTime, relativeTime } from "../lib/format";
import { useNow } from "../lib/use-now";

/** "5 minutes ago", kept fresh, with the exact moment on hover and for machines. */
export function TimeAgo({ iso, prefix = "" }: { iso: string; prefix?: string }) {
  const now = useNow(30_000);
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {prefix}
      {relativeTime(iso, now)}
    </time>
  );
}
