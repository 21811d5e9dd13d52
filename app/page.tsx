import { CodeBlock } from "@/components/code-block";
import Link from "next/link";
import { redirect } from "next/navigation";
import { publicUrl } from "@/lib/config";
import { currentSession, landingPath } from "@/lib/console/session";
import { signUpAllowed } from "@/lib/orgs/sign-up";

export const dynamic = "force-dynamic";

const primaryLink = "rounded-md bg-indigo-600 px-5 py-2.5 font-medium text-white hover:bg-indigo-700";
const secondaryLink = "rounded-md border border-slate-300 bg-white px-5 py-2.5 font-medium hover:bg-slate-100";

export default async function HomePage() {
  const session = await currentSession();
  if (session) redirect(await landingPath(session.userId));
  const api = `${publicUrl()}/api/v1`;
  const canSignUp = signUpAllowed();
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      <h1 className="mt-2 text-3xl font-bold sm:text-4xl">Memory for your AI applications</h1>
      <p className="mt-4 text-lg text-slate-600">
        Your applications remember and recall through a JSON API and MCP, each organization in its own space.
        {canSignUp
          ? " Create an account to get an organization, then make an API key for your application in the console."
          : " Sign-up is turned off on this server: ask an administrator of your organization for an invitation."}
      </p>
      <nav className="mt-8 flex flex-wrap gap-3">
        {canSignUp && (
          <Link className={primaryLink} href="/sign-up">
            Create your account
          </Link>
        )}
        <Link className={canSignUp ? secondaryLink : primaryLink} href="/sign-in">
          Sign in
        </Link>
      </nav>

      <section className="mt-14 space-y-4 border-t border-slate-200 pt-10">
        <h2 className="text-xl font-semibold">For developers</h2>
        <p className="text-slate-600">
          Applications call the API at <code className="break-all font-mono text-indigo-700">{api}</code> with an API
          key from the console:
        </p>
        <CodeBlock>{`curl -X POST ${api}/namespaces \\
  -H "Authorization: Bearer $MEMGW_API_KEY" -H "Content-Type: application/json" \\
  -d '{"name": "support-bot"}'`}</CodeBlock>
        <p className="text-slate-600">
          Operators can also work from the server&apos;s command line, without the console:
        </p>
        <CodeBlock>{`npx memgw org create --name "Acme"
npx memgw key create --org acme --name "my app" \\
  --permissions NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE`}</CodeBlock>
        <div className="flex flex-wrap gap-4 pt-2 text-sm">
          <a className="font-medium text-indigo-600 hover:underline" href="/api/v1/openapi.json">
            OpenAPI document
          </a>
          <a className="font-medium text-indigo-600 hover:underline" href="/api/v1/health">
            Health
          </a>
        </div>
      </section>
    </main>
  );
}
