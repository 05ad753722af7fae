import { expect, type Locator, type Page } from "@playwright/test";

type NodeKind = "start" | "agent" | "router" | "tool" | "orchestrator" | "end" | "abort";

/** /workflows/[id]/edit: the visual editor, driven the way a user does (drag, click, type). */
export class EditorPage {
  constructor(private readonly page: Page) {}

  async goto(workflowId: string) {
    await this.page.goto(`/workflows/${workflowId}/edit`);
    await expect(this.page.getByTestId("workflow-editor")).toBeVisible();
    await expect(this.page.locator(".react-flow__node").first()).toBeVisible();
  }

  canvas = () => this.page.getByTestId("canvas");
  node = (id: string) => this.page.locator(`.react-flow__node[data-id="${id}"]`);
  nodes = () => this.page.locator(".react-flow__node");
  edges = () => this.page.locator(".react-flow__edge");
  edge = (id: string) => this.page.locator(`.react-flow__edge[data-id="${id}"]`);
  saveState = () => this.page.getByTestId("save-state");

  /** Drags a node kind from the palette onto the canvas at (x, y) relative to the canvas. Returns the new node's id. */
  async dragKind(kind: NodeKind, x: number, y: number): Promise<string> {
    const before = new Set(await this.nodes().evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? "")));
    await this.page.getByTestId(`palette-${kind}`).dragTo(this.canvas(), { targetPosition: { x, y } });
    await expect(this.nodes()).toHaveCount(before.size + 1);
    const after = await this.nodes().evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? ""));
    const id = after.find((a) => !before.has(a));
    if (!id) throw new Error("no new node after drop");
    return id;
  }

  /** Drags a node (by its header) by (dx, dy) screen pixels. */
  async moveNode(id: string, dx: number, dy: number) {
    const box = await this.box(this.node(id).locator("div").first());
    const x = box.x + box.width / 2,
      y = box.y + 12;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx, y + dy, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Connects `source`'s outcome handle to `target` by dragging from handle to handle. */
  async connect(source: string, handle: string, target: string) {
    const from = await this.box(this.node(source).locator(`.react-flow__handle.source[data-handleid="${handle}"]`));
    const to = await this.box(this.node(target).locator(`.react-flow__handle.target`));
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /** The id of the edge from `source` to `target` (React Flow labels edges "Edge from A to B"). */
  async edgeId(source: string, target: string): Promise<string> {
    const edge = this.page.locator(`.react-flow__edge[aria-label="Edge from ${source} to ${target}"]`);
    await expect(edge).toHaveCount(1);
    const id = await edge.getAttribute("data-id");
    if (!id) throw new Error("edge without id");
    return id;
  }

  /**
   * Clicks a node's title and waits for the inspector to show it. The canvas may still be moving (a
   * fit or focus animates for 300 ms) or show the node outside the pane (under the inspector): the
   * click waits for the viewport to stand still, and fits the graph first when a click on the title
   * would not reach the node.
   */
  async selectNode(id: string) {
    await this.tab("inspect");
    const title = this.node(id).locator(".truncate").first();
    await this.still();
    if (!(await this.reaches(title, id))) {
      await this.fit();
      await this.still();
    }
    await title.click();
    await expect(this.page.getByTestId("node-inspector")).toHaveAttribute("data-node-id", id);
  }

  /** Waits until the canvas viewport's transform is the same over two animation frames. */
  private async still() {
    await expect
      .poll(() =>
        this.page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const viewport = document.querySelector(".react-flow__viewport");
              const before = viewport?.getAttribute("style");
              requestAnimationFrame(() =>
                requestAnimationFrame(() => resolve(viewport?.getAttribute("style") === before)),
              );
            }),
        ),
      )
      .toBe(true);
  }

  /** Whether a click at the middle of a node's title would reach that node (not the inspector, minimap or controls over it, nor nothing). */
  private async reaches(title: Locator, id: string): Promise<boolean> {
    const box = await title.boundingBox();
    if (!box) return false;
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    return this.page.evaluate(
      ({ x, y, id }) => document.elementFromPoint(x, y)?.closest(".react-flow__node")?.getAttribute("data-id") === id,
      { ...at, id },
    );
  }

  /** Clicks the middle of an edge's path (edges are thin curves: the bounding box centre can miss). */
  async selectEdge(id: string) {
    await this.fit();
    const point = await this.edge(id)
      .locator("path.react-flow__edge-path")
      .evaluate((el) => {
        const path = el as SVGPathElement;
        const p = path.getPointAtLength(path.getTotalLength() / 2);
        const m = path.getScreenCTM();
        if (!m) throw new Error("edge not on screen");
        return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f };
      });
    await this.tab("inspect");
    await this.page.mouse.click(point.x, point.y);
    await expect(this.page.getByTestId("edge-inspector")).toBeVisible();
  }

  /** Fits the whole graph into view (the "F" shortcut), so every element can be clicked. */
  async fit() {
    await this.page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await this.page.keyboard.press("f");
    await this.page.waitForTimeout(450);
  }

  /** Deselects everything (click on empty canvas) so the inspector shows workflow settings. */
  async selectWorkflow() {
    await this.tab("inspect");
    await this.page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await expect(this.page.getByTestId("workflow-inspector")).toBeVisible();
  }

  /** Fills an inspector field and commits it (fields commit on blur). */
  async setField(testId: string, value: string) {
    const field = this.page.getByTestId(testId);
    await field.fill(value);
    await field.press("Tab");
  }

  async tab(name: "inspect" | "issues" | "versions" | "run") {
    await this.page.getByTestId(`tab-${name}`).click();
  }

  async save() {
    await this.page.getByTestId("save").click();
    await expect(this.saveState()).toHaveText("Saved");
  }

  async layout() {
    await this.page.getByTestId("layout").click();
  }

  /** A structural fingerprint of what the canvas shows: node ids, kinds and names; edges with labels. */
  async snapshot(): Promise<{ nodes: string[]; edges: string[] }> {
    const nodes = await this.nodes().evaluateAll((els) =>
      els
        .map(
          (e) =>
            `${e.getAttribute("data-id")}:${e.querySelector("[data-kind]")?.getAttribute("data-kind")}:${e.querySelector(".truncate")?.textContent}`,
        )
        .sort(),
    );
    const edges = await this.edges().evaluateAll((els) =>
      els.map((e) => `${e.getAttribute("data-id")}:${e.getAttribute("aria-label") ?? ""}`).sort(),
    );
    const labels = await this.page.locator("[data-testid^=loop-label-]").allTextContents();
    return { nodes, edges: [...edges, ...labels.sort()] };
  }

  private async box(loc: Locator) {
    await expect(loc).toBeVisible();
    const b = await loc.boundingBox();
    if (!b) throw new Error("element has no box");
    return b;
  }
}
