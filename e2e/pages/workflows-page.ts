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

  /** Clicks "New workflow" and returns the new workflow's id from the URL. */
  async createBlank(): Promise<string> {
    await this.page.getByRole("button", { name: "New workflow" }).first().click();
    await this.page.waitForURL(/\/workflows\/[^/]+$/);
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
