"use client";
import { useEffect } from "react";
import { rememberOrganization } from "@/lib/console/actions/org";

/** Records, once the page is open in a browser, that the user opened this organization last. */
export function RememberOrganization({ orgSlug }: { orgSlug: string }) {
  useEffect(() => {
    void rememberOrganization(orgSlug);
  }, [orgSlug]);
  return null;
}
