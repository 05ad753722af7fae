import type { Prices } from "@/lib/run-views/cost";
import type { RunInfoView, RunLineageView, StepView } from "@/lib/run-views/dto";
import type { Workflow } from "@/lib/workflow/schema";
import type { DeliveryRow } from "@/components/workflows/notifier-types";

/** Everything one dashboard (owner or share) needs to render. */
export interface DashboardProps {
  mode: "owner" | "share";
  run: RunInfoView;
  doc: Workflow | null;
  steps: StepView[];
  /** SSE URL (owner: /api/runs/[id]/events, share: /api/share/[token]/events). */
  eventsUrl: string;
  /** Share view: the JSON URL re-checked when the stream drops (404 = revoked/expired). */
  shareUrl?: string;
  /** Owner's price table; absent in the share view (no cost shown). */
  prices?: Prices;
  /** Share view: whether prompts/outputs are included. */
  includeContent?: boolean;
  /** Owner view: names of the workflows the document's subflow nodes run (by workflow id), so a node not started yet names its workflow. */
  subflowNames?: Record<string, string>;
  /** Owner view: the run's retries and forks and the run it derives from. */
  lineage?: RunLineageView;
  /** Owner view: the run's notifications (lib/notifications), as they stood when the page was opened. */
  notifications?: (DeliveryRow & { url: string })[];
}
