"use client";
import { useActionState, useEffect } from "react";
import { toast } from "sonner";
import { ActionForm } from "@/components/ui/action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { type FormResult, type ProviderRow, SCRIPTED_MODEL_LABEL } from "./types";

interface Props {
  providers: ProviderRow[];
  current: { designerProviderId: string | null; designerModel: string | null };
  action: (prev: FormResult, form: FormData) => Promise<FormResult>;
}

/** Which provider and model turn plain-language descriptions into workflows (default: the scripted demo model). */
export function DesignerModelForm({ providers, current, action }: Props) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  useEffect(() => {
    if (state.status === "ok") toast.success(state.message);
  }, [state]);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <Card>
      <CardHeader>
        <CardTitle>Designer model</CardTitle>
        <CardDescription>
          The model the designer chat (New workflow → Describe, and the editor&apos;s Designer panel) uses to turn your
          descriptions into workflow graphs. Without a choice it uses OPENAI_* from the server environment when set,
          else your most recently updated provider, else the offline {SCRIPTED_MODEL_LABEL.toLowerCase()}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ActionForm
          action={formAction}
          pending={pending}
          className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
        >
          <FormField label="Provider" error={errors.designerProviderId}>
            <Select name="designerProviderId" defaultValue={current.designerProviderId ?? ""}>
              <option value="">Default (environment, else your latest provider, else the demo model)</option>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Model" error={errors.designerModel} hint="Empty = the provider's default model.">
            <Input name="designerModel" defaultValue={current.designerModel ?? ""} placeholder="Provider default" />
          </FormField>
          <div className="sm:pt-[1.625rem]">
            <SubmitButton variant="outline">Save</SubmitButton>
          </div>
        </ActionForm>
      </CardContent>
    </Card>
  );
}
