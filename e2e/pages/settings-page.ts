import { expect, type Page } from "@playwright/test";

export interface ProviderFields {
  name: string;
  baseUrl: string;
  defaultModel: string;
  apiKey: string;
}

/** /settings */
export class SettingsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/settings");
    await expect(this.page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  }

  demoNotice = () => this.page.getByRole("note").filter({ hasText: "Scripted demo model" });
  row = (name: string) => this.page.getByTestId("provider-row").filter({ hasText: name });

  async addProvider(p: ProviderFields) {
    await this.page.getByRole("button", { name: "Add provider" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Add provider" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Name").fill(p.name);
    await dialog.getByLabel("Base URL").fill(p.baseUrl);
    await dialog.getByLabel("Default model").fill(p.defaultModel);
    await dialog.getByLabel("API key").fill(p.apiKey);
    await dialog.getByRole("button", { name: "Add provider" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.row(p.name)).toBeVisible();
  }

  async testConnection(name: string) {
    await this.row(name).getByRole("button", { name: "Test connection" }).click();
  }

  tokenRow = (name: string) => this.page.getByTestId("api-token-row").filter({ hasText: name });

  /** "New token" → name → the secret, read from the field that shows it once; closes the dialog. */
  async createApiToken(name: string): Promise<string> {
    await this.page.getByRole("button", { name: "New token" }).click();
    const dialog = this.page.getByRole("dialog", { name: "New API token" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Create token" }).click();
    const field = dialog.getByTestId("new-api-token");
    await expect(field).toHaveValue(/^weft_/);
    const token = await field.inputValue();
    await expect(dialog.getByText(`curl -H "Authorization: Bearer ${token}"`)).toBeVisible();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.tokenRow(name)).toBeVisible();
    return token;
  }

  async revokeApiToken(name: string) {
    await this.tokenRow(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = this.page.getByRole("dialog", { name: `Revoke ${name}?` });
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.tokenRow(name).getByText("Revoked")).toBeVisible();
  }
}
