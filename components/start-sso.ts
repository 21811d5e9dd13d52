"use client";
import { getCsrfToken } from "next-auth/react";

/**
 * Sends the browser to an organization's identity provider: next-auth starts an OAuth sign-in from a
 * form POST carrying its CSRF token. When a session is open, next-auth links the identity to it.
 */
export async function startSsoSignIn(providerId: string, callbackUrl: string): Promise<void> {
  const post = document.createElement("form");
  post.method = "POST";
  post.action = `/api/auth/signin/${encodeURIComponent(providerId)}`;
  for (const [name, value] of Object.entries({ csrfToken: (await getCsrfToken()) ?? "", callbackUrl })) {
    const field = document.createElement("input");
    Object.assign(field, { type: "hidden", name, value });
    post.append(field);
  }
  document.body.append(post);
  post.submit();
}
