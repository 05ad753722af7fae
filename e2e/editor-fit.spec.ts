import { expect, test, type Page } from "@playwright/test";
import { workflowTemplates } from "../lib/workflow/templates";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";

/**
 * "Fit that reads": every template opened in the editor on a 1440×900 window is drawn legibly at once
 * — the smallest text of any node at least 12 px on screen (its computed font size × the canvas
 * zoom) — and fills the canvas (the graph's box covers at least half of the canvas' width). The
 * minimap shows while part of the graph is out of view, and its toggle shows or hides it either way.
 */

type Reading = { zoom: number; smallestPx: number; smallestText: string; coverage: number; minimap: boolean };

/** What the canvas shows now: zoom, smallest node text on screen, share of the canvas width the graph covers. */
function read(page: Page): Promise<Reading> {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport")!;
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    let smallestPx = Infinity,
      smallestText = "";
    for (const el of document.querySelectorAll(".react-flow__node *")) {
      const own = [...el.childNodes]
        .filter((c) => c.nodeType === Node.TEXT_NODE)
        .map((c) => c.textContent ?? "")
        .join("")
        .trim();
      if (!own) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
      if (px < smallestPx) [smallestPx, smallestText] = [px, own];
    }
    const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    let left = Infinity,
      right = -Infinity;
    for (const n of document.querySelectorAll(".react-flow__node")) {
      const r = n.getBoundingClientRect();
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
    }
    const coverage = (Math.min(right, pane.right) - Math.max(left, pane.left)) / pane.width;
    return {
      zoom,
      smallestPx,
      smallestText,
      coverage,
      minimap: document.querySelector("[data-testid=minimap]") !== null,
    };
  });
}

/** Creates a workflow from the template titled `title` and opens it in the editor. */
async function openTemplate(page: Page, title: string): Promise<void> {
  await page.goto("/workflows");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: new RegExp(title) })
    .click();
  await page.waitForURL(/\/workflows\/(?!new$)[^/]+$/);
  await new EditorPage(page).goto(new URL(page.url()).pathname.split("/").pop()!);
}

test("every template opens legibly at 1440×900: node text ≥ 12 px on screen, the graph across ≥ 50 % of the canvas", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "editor-fit");
  for (const t of workflowTemplates) {
    await openTemplate(page, t.title);
    await expect(page.locator(".react-flow__node")).toHaveCount(t.workflow.nodes.length);
    const r = await read(page);
    expect(r.smallestPx, `${t.title}: smallest node text "${r.smallestText}" at zoom ${r.zoom}`).toBeGreaterThanOrEqual(
      12,
    );
    expect(
      r.coverage,
      `${t.title}: the graph covers ${(r.coverage * 100).toFixed(0)} % of the canvas width`,
    ).toBeGreaterThanOrEqual(0.5);
  }
});

test("the minimap shows while part of the graph is out of view; its toggle hides or shows it either way", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "editor-minimap");
  const editor = new EditorPage(page);
  const toggle = page.getByTestId("minimap-toggle");

  // Six nodes in a row do not fit at a legible zoom: the map shows the rest, the toggle hides it.
  await openTemplate(page, "Article writer");
  expect((await read(page)).minimap).toBe(true);
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await toggle.click();
  await expect(page.getByTestId("minimap")).toHaveCount(0);
  // fitting the whole graph into view does not bring it back: the user's choice stands
  await editor.fit();
  await expect(page.getByTestId("minimap")).toHaveCount(0);
  await toggle.click();
  await expect(page.getByTestId("minimap")).toBeVisible();

  // Three nodes fit on screen: no map until asked for.
  await openTemplate(page, "Financial analyst");
  expect((await read(page)).minimap).toBe(false);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(page.getByTestId("minimap")).toBeVisible();
  // the map is as flat as the graph: wider than tall
  const box = (await page.getByTestId("minimap").boundingBox())!;
  expect(box.width).toBeGreaterThan(box.height);
});
