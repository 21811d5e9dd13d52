import { redirect } from "next/navigation";

export default async function OrganizationHome({ params }: { params: Promise<{ org: string }> }) {
  redirect(`/${(await params).org}/keys`);
}
