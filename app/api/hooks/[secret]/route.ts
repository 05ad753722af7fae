import { receiveWebhook } from "@/lib/webhooks/receive";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ secret: string }> };

/**
 * A webhook call (lib/webhooks/receive.ts): the secret in the URL is the credential, so senders
 * need no header and no session; the body gives the run's inputs. → 202 `{runId, status, dispatched}`.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  return receiveWebhook((await context.params).secret, request);
}
