import { expect, type Locator, type Page } from "@playwright/test";

/** /runs/[id] (owner) and /share/[token] (anyone with the link): the run dashboard. */
export class RunPage {
  constructor(private readonly page: Page) {}

  async goto(runId: string) {
    await this.page.goto(`/runs/${runId}`);
    await expect(this.dashboard()).toBeVisible();
  }

  dashboard = (): Locator => this.page.getByTestId("run-dashboard");
  status = (): Locator => this.page.getByTestId("run-status");
  node = (id: string): Locator => this.page.getByTestId(`node-${id}`);
  bar = (nodeId: string, iteration = 1): Locator => this.page.getByTestId(`bar-${nodeId}-${iteration}`);
  /** A waiting human review's block in the review card. */
  review = (nodeId: string): Locator => this.page.getByTestId(`review-${nodeId}`);

  /** The recorded start/finish (ms since epoch) of a step's timeline bar. */
  async times(nodeId: string, iteration = 1): Promise<{ started: number; finished: number }> {
    const bar = this.bar(nodeId, iteration);
    const started = Date.parse((await bar.getAttribute("data-started")) ?? "");
    const finished = Date.parse((await bar.getAttribute("data-finished")) ?? "");
    return { started, finished };
  }

  /** Creates a share link through the dialog and returns its URL. */
  async createShareLink(opts: { includeContent?: boolean } = {}): Promise<string> {
    await this.page.getByTestId("share-open").click();
    if (opts.includeContent) await this.page.getByTestId("share-content").check();
    await this.page.getByTestId("share-create").click();
    const url = await this.page.getByTestId("share-url").inputValue();
    expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
    return url;
  }

  /** Revokes the newest active link from the open share dialog. */
  async revokeFirstLink() {
    await this.page.getByTestId("share-revoke").first().click();
    await expect(this.page.getByTestId("share-links").locator("[data-active=true]")).toHaveCount(0);
  }
}
