import { Textarea } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { DESIGN_EXAMPLES } from "@/lib/designer/examples";

/**
 * "Describe the system you want": one box; submitting creates a draft and opens the editor, where the
 * designer's proposal waits on the canvas to be accepted. Clicking an example submits that example.
 */
export function DescribeForm({ action, error }: { action: (form: FormData) => Promise<void>; error?: string }) {
  return (
    <form
      action={action}
      className="grid gap-3 rounded-lg border border-border bg-surface p-4 shadow-xs"
      aria-label="Describe the system you want"
    >
      <label htmlFor="describe-message" className="text-sm font-semibold">
        Describe the system you want
      </label>
      <Textarea
        id="describe-message"
        name="message"
        rows={4}
        required
        maxLength={4000}
        data-testid="describe-input"
        placeholder="What goes in, what should come out, which agents do what, and when work goes back for another pass…"
      />
      {error && (
        <p className="text-xs text-danger" role="alert">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted">
          e.g.{" "}
          {DESIGN_EXAMPLES.map((e, i) => (
            <span key={i}>
              {i > 0 && " · "}
              {/* an example designs itself: the clicked button's value is the request (formNoValidate: the box may be empty) */}
              <button
                type="submit"
                name="example"
                value={e}
                formNoValidate
                data-testid="describe-example"
                className="cursor-pointer text-left underline decoration-dotted underline-offset-2 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                “{e}”
              </button>
            </span>
          ))}
        </p>
        <SubmitButton data-testid="describe-submit">Design it</SubmitButton>
      </div>
      <p className="text-xs text-muted">
        The proposal opens in the editor as a diff: nothing is saved until you accept it.
      </p>
    </form>
  );
}
