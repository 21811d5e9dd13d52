// Words the console shows after an action, kept apart from the components so tests can read them.

/** What the person is told after inviting someone: without a mail server, where the link went instead. */
export function invitationMessage(email: string, mailed: boolean): string {
  if (mailed) return `Invitation sent to ${email}.`;
  return (
    `${email} is invited, but no email was sent: no SMTP_URL is set, so their sign-in link was printed in the ` +
    "server log. Send them that link yourself, or configure a mail server."
  );
}
