import { CodeBlock } from "@/components/code-block";
import { redirect } from "next/navigation";
import { publicUrl } from "@/lib/config";
import { currentSession, landingPath } from "@/lib/console/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const session = await currentSession();
  if (session) redirect(await landingPath(session.userId));
  const api = `${publicUrl()}/api/v1`;
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      <h1 className="mt-2 text-3xl font-bold sm:text-4xl">Memory for your AI applications</h1>
      <p className="mt-4 text-lg text-slate-600">
        The gateway is running. Applications call the JSON API at <code className="font-mono text-indigo-700">{api}</code>{" "}
        with an API key.
      </p>
      <section className="mt-10 space-y-4">
        <h2 className="text-xl font-semibold">Get a key</h2>
        <CodeBlock>{`npx memgw org create --name "Acme"
npx memgw key create --org acme --name "my app" \\
  --permissions NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE`}</CodeBlock>
        <h2 className="text-xl font-semibold">Create a namespace</h2>
        <CodeBlock>{`curl -X POST ${api}/namespaces \\
  -H "Authorization: Bearer $MEMGW_KEY" -H "Content-Type: application/json" \\
  -d '{"name": "support-bot"}'`}</CodeBlock>
      </section>
      <nav className="mt-10 flex flex-wrap gap-4 text-sm">
        <a className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700" href="/sign-in">
          Sign in to the console
        </a>
        <a className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500" href="/api/v1/openapi.json">
          OpenAPI document
        </a>
        <a className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-white" href="/api/v1/health">
          Health
        </a>
      </nav>
    </main>
  );
}
