import Link from "next/link";
// Unknown pages, and organizations the signed-in user is not (or no longer) a member of.
export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-3 text-sm text-slate-700">
        This page does not exist, or it belongs to an organization you are not a member of.
      </p>
      <Link href="/" className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline">
        Go to your organizations
      </Link>
    </main>
  );
}
