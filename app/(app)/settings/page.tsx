import type { Metadata } from "next";
import Link from "next/link";
import { ApiTokensSection } from "@/components/settings/api-tokens-section";
import { CredentialsSection } from "@/components/settings/credentials-section";
import { DemoModelNotice } from "@/components/settings/demo-model-notice";
import { DesignerModelForm } from "@/components/settings/designer-model-form";
import { PasswordForm } from "@/components/settings/password-form";
import { PriceTable } from "@/components/settings/price-table";
import { ProvidersSection } from "@/components/settings/providers-section";
import { McpServersSection } from "@/components/tools/mcp-servers-section";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { allows } from "@/lib/roles";
import { listApiTokens } from "@/lib/db/api-tokens";
import { listCredentials } from "@/lib/db/credentials";
import { listProviders } from "@/lib/db/providers";
import { hasPasswordAccount } from "@/lib/db/users";
import { getSettings } from "@/lib/db/settings";
import { changePasswordAction } from "./password-actions";
import { savePricesAction } from "./price-actions";
import { stdioAllowed } from "@/lib/mcp/client/connection";
import { deleteToolAction, saveMcpServerAction } from "../tools/actions";
import { loadToolViews } from "../tools/data";
import { createApiTokenAction, revokeApiTokenAction } from "./token-actions";
import { deleteCredentialAction, saveCredentialAction } from "./credential-actions";
import { deleteProviderAction, saveDesignerAction, saveProviderAction, testProviderAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const access = await requireAccess("read", "/settings");
  // providers, credentials and MCP servers are the workspace's: only members who may edit see them
  const canEdit = allows(access.role, "edit");
  const [providers, settings, tools, tokens, hasPassword, credentials] = await Promise.all([
    canEdit ? listProviders(access.workspaceId) : Promise.resolve([]),
    getSettings(access.userId),
    canEdit ? loadToolViews(access.workspaceId, { listMcpTools: false }) : Promise.resolve([]),
    listApiTokens(access.workspaceId, access.userId),
    hasPasswordAccount(access.userId),
    canEdit ? listCredentials(access.workspaceId) : Promise.resolve([]),
  ]);
  const rows = providers.map(({ id, name, baseUrl, defaultModel, apiKeyLast4 }) => ({
    id,
    name,
    baseUrl,
    defaultModel,
    apiKeyLast4,
  }));
  return (
    <>
      <PageHeader
        title="Settings"
        description="Model providers, keys, the designer model, credentials, MCP servers and API tokens."
      />
      <div className="grid grid-cols-1 gap-8">
        {!canEdit && (
          <p className="text-sm text-muted" data-testid="settings-role-note">
            Your role in this workspace ({access.role}) does not change its providers, credentials or MCP servers.
          </p>
        )}
        {canEdit && rows.length === 0 && <DemoModelNotice />}
        {canEdit && (
          <ProvidersSection
            providers={rows}
            save={saveProviderAction}
            remove={deleteProviderAction}
            test={testProviderAction}
          />
        )}
        <DesignerModelForm providers={rows} current={settings} action={saveDesignerAction} />
        <p className="-mt-4 text-sm">
          <Link
            href="/settings/designer-evaluation"
            className="text-primary hover:underline"
            data-testid="designer-evaluation-link"
          >
            Evaluate the designer with one of your providers →
          </Link>
        </p>
        <PriceTable prices={settings.prices} save={savePricesAction} />
        {canEdit && (
          <CredentialsSection
            credentials={credentials.map(({ id, name, kind, headerName, last4 }) => ({
              id,
              name,
              kind,
              headerName,
              last4,
            }))}
            save={saveCredentialAction}
            remove={deleteCredentialAction}
          />
        )}
        {canEdit && (
          <McpServersSection
            servers={tools.filter((t) => t.kind === "mcp")}
            actions={{ save: saveMcpServerAction, remove: deleteToolAction }}
            stdioEnabled={stdioAllowed()}
            credentials={credentials.map((c) => c.name)}
          />
        )}
        <ApiTokensSection tokens={tokens} create={createApiTokenAction} revoke={revokeApiTokenAction} />
        {hasPassword && <PasswordForm action={changePasswordAction} />}
      </div>
    </>
  );
}
