import type { Metadata } from "next";
import { DemoModelNotice } from "@/components/settings/demo-model-notice";
import { DesignerModelForm } from "@/components/settings/designer-model-form";
import { PriceTable } from "@/components/settings/price-table";
import { ProvidersSection } from "@/components/settings/providers-section";
import { McpServersSection } from "@/components/tools/mcp-servers-section";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { listProviders } from "@/lib/db/providers";
import { getSettings } from "@/lib/db/settings";
import { savePricesAction } from "./price-actions";
import { stdioAllowed } from "@/lib/tools/mcp/client";
import { deleteToolAction, saveMcpServerAction } from "../tools/actions";
import { loadToolViews } from "../tools/data";
import { deleteProviderAction, saveDesignerAction, saveProviderAction, testProviderAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requireUser("/settings");
  const [providers, settings, tools] = await Promise.all([listProviders(user.id), getSettings(user.id), loadToolViews(user.id, { listMcpTools: false })]);
  const rows = providers.map(({ id, name, baseUrl, defaultModel, apiKeyLast4 }) => ({ id, name, baseUrl, defaultModel, apiKeyLast4 }));
  return (
    <>
      <PageHeader title="Settings" description="Model providers, keys and the designer model." />
      <div className="grid gap-8">
        {rows.length === 0 && <DemoModelNotice />}
        <ProvidersSection providers={rows} save={saveProviderAction} remove={deleteProviderAction} test={testProviderAction} />
        <DesignerModelForm providers={rows} current={settings} action={saveDesignerAction} />
        <PriceTable prices={settings.prices} save={savePricesAction} />
        <McpServersSection servers={tools.filter((t) => t.kind === "mcp")} actions={{ save: saveMcpServerAction, remove: deleteToolAction }} stdioEnabled={stdioAllowed()} />
      </div>
    </>
  );
}
