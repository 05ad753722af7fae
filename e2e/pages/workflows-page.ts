import { expect, type Page } from "@playwright/test";

/** /workflows and /workflows/[id] */
export class WorkflowsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/workflows");
    await expect(this.heading()).toBeVisible();
  }

  heading = () => this.page.getByRole("heading", { level: 1, name: "Workflows" });
  emptyState = () => this.page.getByRole("heading", { name: "No workflows yet" });
  rows = () => this.page.getByRole("table").getByRole("row");

  /** "New workflow" → /workflows/new → "Blank workflow"; returns the new workflow's id from the URL. */
  async createBlank(): Promise<string> {
    if (!new URL(this.page.url()).pathname.endsWith("/workflows")) await this.goto();
    await this.page.getByRole("link", { name: "New workflow" }).first().click();
    await this.page.waitForURL("**/workflows/new");
    await this.page.getByTestId("template-blank").click();
    await this.page.waitForURL(/\/workflows\/(?!new$)[^/]+$/);
    const id = new URL(this.page.url()).pathname.split("/").pop();
    if (!id) throw new Error("no workflow id in URL");
    return id;
  }

  /** Asserts the overview of a blank workflow (start + end). */
  async expectOverview(name: string) {
    await expect(this.page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(this.page.getByTestId("node-count")).toHaveText("2");
  }
}
