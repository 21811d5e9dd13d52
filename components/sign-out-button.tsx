"use client";
import { signOut } from "next-auth/react";
import { Button } from "./ui";

export function SignOutButton({
  label = "Sign out",
  callbackUrl = "/sign-in",
}: {
  label?: string;
  callbackUrl?: string;
}) {
  return (
    <Button variant="secondary" onClick={() => signOut({ callbackUrl })}>
      {label}
    </Button>
  );
}
