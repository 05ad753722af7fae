import { expect, type Page } from "@playwright/test";

/** /agents: the agent library (create, edit, duplicate, delete saved agents). */
export class AgentsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/agents");
    await expect(this.page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  }

  cards = () => this.page.getByTestId("agent-card");
  card = (name: string) =>
    this.cards().filter({ has: this.page.getByTestId("agent-card-name").getByText(name, { exact: true }) });

  /** Opens "New agent", fills the form and saves; returns when the card is listed. */
  async create(a: {
    name: string;
    description?: string;
    instructions: string;
    model?: "scripted" | "";
    tools?: string[];
  }) {
    await this.page.getByTestId("agent-new").click();
    const form = this.page.getByTestId("agent-form");
    await expect(form).toBeVisible();
    await form.getByTestId("agent-name").fill(a.name);
    if (a.description) await form.getByTestId("agent-description").fill(a.description);
    await form.getByTestId("agent-instructions").fill(a.instructions);
    if (a.model !== undefined) await form.getByTestId("agent-model").selectOption(a.model);
    for (const t of a.tools ?? []) await form.getByTestId("agent-tools").locator(`input[value="${t}"]`).check();
    await form.getByTestId("agent-save").click();
    await expect(form).toBeHidden();
    await expect(this.card(a.name)).toHaveCount(1);
  }
}
