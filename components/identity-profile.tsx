import Link from "next/link";
import { UtcTime } from "@/components/identity-parts";
import { Card, EmptyState } from "@/components/ui";
import type { IdentityProfileJson } from "@/lib/memory/read/identity-profile";

/**
 * What holds of an identity in one namespace (GET /identities/{id}/profile): its current facts, each with since
 * when, and the timeline of what replaced what. `namespaces` are the others it has memories in, to switch to.
 */
export function IdentityProfile({
  profile,
  namespaceName,
  namespaces,
  profileHref,
  memoryHref,
}: {
  profile: IdentityProfileJson;
  namespaceName: string;
  namespaces: { id: string; name: string }[];
  profileHref: (namespaceId: string) => string;
  memoryHref: (memoryId: string) => string;
}) {
  return (
    <Card
      title="Profile"
      description={
        <>
          What holds now in <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{namespaceName}</span>
          : one fact per slot (a fact_key, or statements one of which replaced another).
          {namespaces.length > 1 && (
            <span className="mt-1 block">
              Other namespaces:{" "}
              {namespaces
                .filter((namespace) => namespace.id !== profile.namespace_id)
                .map((namespace, i) => (
                  <span key={namespace.id}>
                    {i > 0 && ", "}
                    <Link href={profileHref(namespace.id)} className="text-indigo-600 hover:underline">
                      {namespace.name}
                    </Link>
                  </span>
                ))}
            </span>
          )}
        </>
      }
    >
      {profile.facts.length === 0 ? (
        <EmptyState title="No facts that changed yet">
          When a memory replaces another (the same fact_key, supersedes, or a statement found to say what changed), the
          one that holds shows here.
        </EmptyState>
      ) : (
        <ul data-testid="profile-facts" className="divide-y divide-slate-100">
          {profile.facts.map((fact) => (
            <li key={fact.memory_id} className="py-2 text-sm">
              <Link href={memoryHref(fact.memory_id)} className="break-words text-slate-900 hover:text-indigo-700">
                {fact.content}
              </Link>
              <p className="mt-1 text-xs text-slate-500">
                {fact.fact_key && (
                  <span className="mr-1 rounded bg-slate-100 px-1.5 py-0.5 font-mono">{fact.fact_key}</span>
                )}
                since <UtcTime value={new Date(fact.since)} />
                {fact.supersedes.length > 0 &&
                  ` · replaced ${fact.supersedes.length} ${fact.supersedes.length === 1 ? "memory" : "memories"}`}
              </p>
            </li>
          ))}
        </ul>
      )}
      {profile.changes.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold">Timeline of changes</h3>
          <ol data-testid="profile-timeline" className="mt-2 space-y-2 border-l border-slate-200 pl-4 text-sm">
            {profile.changes.map((change) => (
              <li key={change.replaced.memory_id}>
                <p className="text-xs text-slate-500">
                  <UtcTime value={new Date(change.at)} />
                  {change.supersession && ` · ${change.supersession.kind.replace("_", " ")}`}
                  {change.supersession?.similarity !== undefined && ` (similarity ${change.supersession.similarity})`}
                </p>
                <p className="break-words">
                  <Link href={memoryHref(change.by.memory_id)} className="text-slate-900 hover:text-indigo-700">
                    {change.by.content}
                  </Link>
                </p>
                <p className="break-words text-slate-500 line-through decoration-slate-300">
                  <Link href={memoryHref(change.replaced.memory_id)} className="hover:text-indigo-700">
                    {change.replaced.content}
                  </Link>
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </Card>
  );
}
