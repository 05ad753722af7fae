"use server";
import { redirect } from "next/navigation";
import * as z from "zod";
import { chooseWorkspace } from "@/lib/auth/access";
import { currentUser } from "@/lib/auth/session";
import { recordAudit } from "@/lib/db/audit";
import { acceptInvitation } from "@/lib/db/workspaces";
import { AppError } from "@/lib/errors";

/**
 * Accepts an invitation as the signed-in user (no workspace permission: the link is the grant) and
 * moves their switcher to its workspace. Signed out, it sends them to sign in and back.
 */
export async function acceptInvitationAction(_prev: string | null, form: FormData): Promise<string | null> {
  const token = z.string().min(1).max(200).safeParse(form.get("token"));
  if (!token.success) return "This invitation link is malformed.";
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/invite/${token.data}`)}`);
  let joined: { workspaceId: string; role: string };
  try {
    joined = await acceptInvitation(token.data, user);
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
  await recordAudit(
    { workspaceId: joined.workspaceId, userId: user.id, via: "session" },
    "member.joined",
    {
      type: "user",
      id: user.id,
    },
    { role: joined.role },
  );
  await chooseWorkspace(joined.workspaceId);
  redirect("/workflows");
}
