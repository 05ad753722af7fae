import { Badge } from "@/components/ui/badge";
import { PlusIcon, WorkflowIcon } from "@/components/ui/icons";
import { SubmitButton } from "@/components/ui/submit-button";

/** A choice in "New workflow": "blank" or a pattern template's id. */
export interface TemplateOption {
  id: string;
  name: string;
  description: string;
  /** A short label such as the agent pattern ("Routing"). */
  tag?: string;
}

type Action = (form: FormData) => Promise<void>;

/** The primary "New workflow" button (creates a blank draft). */
export function NewWorkflowButton({ action, label = "New workflow" }: { action: Action; label?: string }) {
  return (
    <form action={action}>
      <input type="hidden" name="template" value="blank" />
      <SubmitButton>
        <PlusIcon /> {label}
      </SubmitButton>
    </form>
  );
}

/** A grid of templates; each card submits `template=<id>` to the create action. */
export function TemplatePicker({ templates, action }: { templates: TemplateOption[]; action: Action }) {
  return (
    <ul className="grid w-full gap-3 text-left sm:grid-cols-2 lg:grid-cols-3" aria-label="Templates">
      {templates.map((t) => (
        <li key={t.id}>
          <form action={action} className="h-full">
            <input type="hidden" name="template" value={t.id} />
            <button
              type="submit"
              className="group flex h-full w-full cursor-pointer flex-col gap-1.5 rounded-lg border border-border bg-surface p-4 text-left shadow-xs transition-colors hover:border-primary/50 hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="flex items-center gap-2 text-sm font-medium">
                <WorkflowIcon className="text-muted group-hover:text-primary" /> {t.name}
              </span>
              <span className="line-clamp-3 text-xs text-muted">{t.description}</span>
              {t.tag && <Badge className="mt-auto self-start">{t.tag}</Badge>}
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}
