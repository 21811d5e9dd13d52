// Words the console shows after an action, kept apart from the components so tests can read them.

/** What the person is told after inviting someone: without a mail server, where the link went instead. */
export function invitationMessage(email: string, mailed: boolean): string {
  if (mailed) return `Invitation sent to ${email}.`;
  return (
    `${email} is invited, but no email was sent: no mail server is set (SMTP_URL), so the invitation went to ` +
    "the server log only. Use “Copy link” on their row and send them the link yourself."
  );
}
