import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/lib/auth/session";
import { openInvitation } from "@/lib/db/workspaces";
import { ROLE_SUMMARY } from "@/lib/roles";
import { AuthCard } from "../../_components/auth-card";
import { AcceptInvitationForm } from "./accept-form";

export const metadata: Metadata = { title: "Invitation" };

/** An invitation link: what it offers, and "Join" for the signed-in user (sign in first otherwise). */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, user] = await Promise.all([openInvitation(token), currentUser()]);
  const back = `/invite/${token}`;
  if (!invitation) {
    return (
      <AuthCard
        title="Invitation not valid"
        subtitle="It was used, revoked, or it expired."
        footer={<Link href="/workflows">Go to your workflows</Link>}
      >
        <p className="text-sm" data-testid="invitation-invalid">
          Ask the workspace&apos;s owner for a new link.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={`Join ${invitation.workspaceName}`}
      subtitle={`You are invited as ${invitation.role}: ${ROLE_SUMMARY[invitation.role]}`}
      footer={
        user ? (
          <>Signed in as {user.email ?? user.name}</>
        ) : (
          <>
            No account?{" "}
            <Link href="/sign-up" className="font-medium text-foreground underline-offset-4 hover:underline">
              Create one
            </Link>
            , then open this link again.
          </>
        )
      }
    >
      {user ? (
        <AcceptInvitationForm token={token} />
      ) : (
        <Link
          href={`/sign-in?callbackUrl=${encodeURIComponent(back)}`}
          className="text-sm font-medium underline-offset-4 hover:underline"
          data-testid="invitation-sign-in"
        >
          Sign in to accept
        </Link>
      )}
    </AuthCard>
  );
}
