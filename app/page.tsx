import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";

/** `/` sends signed-in users to their workflows and everyone else to sign-in. */
export default async function Home() {
  redirect((await currentUser()) ? "/workflows" : "/sign-in");
}
