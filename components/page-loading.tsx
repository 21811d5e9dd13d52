// What a console page shows while its data loads (each page segment's loading.tsx).
export function PageLoading() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading">
      <div className="h-8 w-48 animate-pulse rounded bg-slate-200" />
      <div className="h-32 animate-pulse rounded-lg bg-slate-200" />
      <div className="h-48 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}
