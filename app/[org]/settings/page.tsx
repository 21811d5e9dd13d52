import { SettingsPanel } from "@/components/settings-panel";
import { getOidcConnection, ssoProviderId } from "@/lib/auth/sso";
import { publicUrl } from "@/lib/config";
import { requireOrganization } from "@/lib/console/session";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: { params: Promise<{ org: string }> }) {
  const { membership, org } = await requireOrganization((await params).org);
  const connection = await getOidcConnection(org.id);
  return (
    <SettingsPanel
      orgSlug={org.slug}
      isOwner={membership.role === "owner"}
      policy={{ allow_password: org.allowPassword, allow_magic_link: org.allowMagicLink, allow_sso: org.allowSso }}
      connection={
        connection && {
          issuer: connection.issuer,
          client_id: connection.clientId,
          allowed_domains: connection.allowedDomains,
        }
      }
      redirectUri={`${publicUrl()}/api/auth/callback/${ssoProviderId(org.id)}`}
    />
  );
}
