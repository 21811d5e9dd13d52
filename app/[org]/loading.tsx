// Shown inside the organization's header while a console page loads its data.
export default function Loading() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading">
      <div className="h-8 w-48 animate-pulse rounded bg-slate-200" />
      <div className="h-32 animate-pulse rounded-lg bg-slate-200" />
      <div className="h-48 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}
