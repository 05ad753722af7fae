"use client";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Textarea } from "@/components/ui/input";
import { ANSWER_COMMENT_MAX } from "@/lib/workflow/runs";
import { answerError, buildAnswer, deadlineText, type ReviewFormValues } from "./review-answer";
import type { InputRequestView, StepState } from "./run-fold";
import { ToolUnderReview } from "./tool-under-review";

type Review = StepState & { request: InputRequestView };

interface Props {
  runId: string;
  reviews: readonly Review[];
  nodeName: (id: string) => string;
  /** Owner view: the form and the choices; otherwise the question only. */
  canAnswer: boolean;
}

/** The run's waiting human reviews; the owner answers them here (POST /api/runs/:id/answer). */
export function ReviewCard({ runId, reviews, nodeName, canAnswer }: Props) {
  return (
    <Card className="border-warning/50" data-testid="reviews">
      <CardHeader>
        <CardTitle>
          {reviews.length > 1 ? `${reviews.length} reviews are` : "A review is"} waiting for an answer
        </CardTitle>
        {canAnswer && <CardDescription>The run continues with the choice you make.</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        {reviews.map((r) => (
          <ReviewBlock key={r.key} runId={runId} review={r} name={nodeName(r.nodeId)} canAnswer={canAnswer} />
        ))}
      </CardContent>
    </Card>
  );
}

function ReviewBlock({
  runId,
  review,
  name,
  canAnswer,
}: {
  runId: string;
  review: Review;
  name: string;
  canAnswer: boolean;
}) {
  const { prompt, choices, fields } = review.request;
  const deadline = deadlineText(review.startedAt, review.request);
  const [values, setValues] = useState<ReviewFormValues>({});
  const [comment, setComment] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const set = (key: string, v: string | boolean) => setValues((prev) => ({ ...prev, [key]: v }));

  const answer = async (choice: string) => {
    const built = buildAnswer(review, review.request, choice, values, comment);
    setErrors(built.ok ? {} : built.errors);
    setMessage(built.ok ? null : "Fill in the fields marked below.");
    if (!built.ok) return;
    setBusy(choice);
    try {
      const res = await fetch(`/api/runs/${runId}/answer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(built.body),
      });
      if (res.ok) {
        setSent(true);
        toast.success(`Answered "${choices.find((c) => c.id === choice)?.label || choice}"; the run continues.`);
        return;
      }
      const refused = answerError(res.status, await res.json().catch(() => null));
      setErrors(refused.fields);
      setMessage(refused.message);
      toast.error(refused.message);
    } catch {
      setMessage("The answer could not be sent; check the connection and try again.");
      toast.error("The answer could not be sent.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      className="grid gap-3 rounded-md border border-border p-4"
      data-testid={`review-${review.nodeId}`}
      data-iteration={review.iteration}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{name}</span>
        {review.iteration > 1 && <span className="text-xs text-muted">iteration {review.iteration}</span>}
        <Badge tone="warning" data-testid="review-state">
          {sent ? "Answer sent" : "Waiting for an answer"}
        </Badge>
      </div>
      {deadline && (
        <p className="text-xs text-muted" data-testid="review-deadline">
          {deadline}
        </p>
      )}
      {prompt ? (
        <div
          className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md bg-surface-2 p-3 text-sm"
          data-testid="review-prompt"
        >
          {prompt}
        </div>
      ) : (
        <p className="text-sm text-muted">The question is not shared.</p>
      )}
      {review.request.tool && <ToolUnderReview tool={review.request.tool} />}
      {canAnswer && (
        <div className="grid gap-3">
          {fields.map((f) =>
            f.type === "boolean" ? (
              <label key={f.key} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={values[f.key] === true}
                  onChange={(e) => set(f.key, e.target.checked)}
                  data-testid={`review-field-${f.key}`}
                />
                <span className="font-medium">{f.key}</span>
                {f.description && <span className="text-xs text-muted">{f.description}</span>}
              </label>
            ) : (
              <FormField
                key={f.key}
                label={`${f.key}${f.required ? " *" : ""}`}
                hint={f.description || undefined}
                error={errors[f.key]}
              >
                {f.type === "text" || f.type === "json" ? (
                  <Textarea
                    rows={f.type === "json" ? 4 : 3}
                    className={f.type === "json" ? "font-mono text-xs" : undefined}
                    placeholder={f.type === "json" ? 'JSON, e.g. {"key": 1}' : undefined}
                    value={String(values[f.key] ?? "")}
                    onChange={(e) => set(f.key, e.target.value)}
                    data-testid={`review-field-${f.key}`}
                  />
                ) : (
                  <Input
                    type={f.type === "number" ? "number" : "text"}
                    step={f.type === "number" ? "any" : undefined}
                    value={String(values[f.key] ?? "")}
                    onChange={(e) => set(f.key, e.target.value)}
                    data-testid={`review-field-${f.key}`}
                  />
                )}
              </FormField>
            ),
          )}
          <FormField label="Comment (optional)">
            <Textarea
              rows={2}
              maxLength={ANSWER_COMMENT_MAX}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              data-testid="review-comment"
            />
          </FormField>
          {message && (
            <p role="alert" className="text-sm text-danger" data-testid="review-error">
              {message}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {choices.map((c, i) => (
              <Button
                key={c.id}
                variant={i === 0 ? "primary" : "outline"}
                loading={busy === c.id}
                disabled={busy !== null || sent}
                onClick={() => void answer(c.id)}
                data-testid={`review-choice-${c.id}`}
              >
                {c.label || c.id}
              </Button>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}
