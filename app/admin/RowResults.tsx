import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher, useFetchers } from "react-router";
import type { AdminActionData } from "./types";

/**
 * The answers of a list's rows (an enquiry card, a project row), read where they outlive the row.
 *
 * A row posts with its own fetcher. When another answer brings the list without that row while
 * its post is in flight (the revalidation after an earlier action, Refresh, Add Project), the row
 * unmounts and React Router drops the answer of a fetcher nobody holds any more: the delete was
 * done, but "… deleted successfully." never showed (the keyboard journey in admin-inbox.spec.ts
 * failed on it in a clean-clone CI; the tests "… lost the card/row before the delete's answer
 * comes back" hold the answer back to make it happen every time).
 *
 * So each row's fetcher has a key (`rowFetcherKey`), and the panel renders `<RowResults>`: for
 * every such fetcher it sees at work, a watcher that holds the same keyed fetcher (React Router
 * keeps a keyed fetcher while any component holds it) and hands its answer to the panel, then lets
 * go once the fetcher is idle.
 */
export type RowKind = "enquiry" | "project";

export function rowFetcherKey(kind: RowKind, id: string): string {
  return `${kind}-row:${id}`;
}

export function RowResults({ kind, onResult }: { kind: RowKind; onResult: (result: AdminActionData) => void }) {
  const prefix = rowFetcherKey(kind, "");
  const atWork = useFetchers()
    .filter((fetcher) => fetcher.key.startsWith(prefix) && fetcher.state !== "idle")
    .map((fetcher) => fetcher.key);
  const [watched, setWatched] = useState<ReadonlyArray<string>>([]);
  const unwatched = atWork.filter((key) => !watched.includes(key));
  // Derived in render, not in an effect: the watcher must be there before the answer can arrive.
  if (unwatched.length > 0) setWatched([...watched, ...unwatched]);
  const done = useCallback((key: string) => setWatched((keys) => keys.filter((watchedKey) => watchedKey !== key)), []);
  return watched.map((key) => <RowResult key={key} fetcherKey={key} onResult={onResult} onDone={done} />);
}

function RowResult({ fetcherKey, onResult, onDone }: { fetcherKey: string; onResult: (result: AdminActionData) => void; onDone: (key: string) => void }) {
  const fetcher = useFetcher<AdminActionData>({ key: fetcherKey });
  // Mounted while the row posts: what the fetcher holds now is the previous answer, already given.
  const given = useRef(fetcher.data);
  useEffect(() => {
    if (fetcher.data && fetcher.data !== given.current) {
      given.current = fetcher.data;
      onResult(fetcher.data);
    }
    if (fetcher.state === "idle") onDone(fetcherKey);
  }, [fetcher.data, fetcher.state, fetcherKey, onResult, onDone]);
  return null;
}
