import Link from "next/link";

const LINK = "text-indigo-700 hover:underline";

/**
 * Namespaces / <namespace> / … : the trail of a page inside a namespace. A step without `href` is the page
 * itself (the last one).
 */
export function NamespaceBreadcrumb({
  orgSlug,
  namespace,
  trail,
}: {
  orgSlug: string;
  namespace: { id: string; name: string };
  trail: { label: string; href?: string }[];
}) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <Link href={`/${orgSlug}/namespaces`} className={LINK}>
            Namespaces
          </Link>
        </li>
        <li aria-hidden="true">/</li>
        <li className="min-w-0 wrap-anywhere">
          <Link href={`/${orgSlug}/namespaces/${namespace.id}`} className={LINK}>
            {namespace.name}
          </Link>
        </li>
        {trail.map((step) => (
          <BreadcrumbStep key={step.label} step={step} />
        ))}
      </ol>
    </nav>
  );
}

function BreadcrumbStep({ step }: { step: { label: string; href?: string } }) {
  return (
    <>
      <li aria-hidden="true">/</li>
      <li className="min-w-0 [overflow-wrap:anywhere]">
        {step.href ? (
          <Link href={step.href} className={LINK}>
            {step.label}
          </Link>
        ) : (
          <span aria-current="page">{step.label}</span>
        )}
      </li>
    </>
  );
}
