import { expect, test, type Page } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * Subflow nodes against the real runtime: a child workflow (input `topic`, output `summary`) is
 * saved as a version; a parent's subflow node is pointed at it in the inspector (which lists the
 * child's input fields) and maps `topic` from the parent's input; the parent's run starts the child,
 * waits for its end and finishes with the child's output; the two run pages link to each other.
 */
const child = {
  schemaVersion: 1,
  name: "Topic summary",
  inputs: [{ key: "topic", type: "string", description: "What to write about", required: true }],
  outputs: [{ key: "summary", type: "string" }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 } },
    { id: "end", type: "end", position: { x: 320, y: 0 }, outputs: { summary: "About {{inputs.topic}}" } },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

const parent = {
  schemaVersion: 1,
  name: "Subflow parent",
  inputs: [{ key: "subject", type: "string", required: true }],
  outputs: [{ key: "result", type: "string" }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 } },
    { id: "sub", type: "subflow", name: "Summarise", workflowId: "", inputs: {}, position: { x: 300, y: 0 } },
    { id: "end", type: "end", position: { x: 600, y: 0 }, outputs: { result: "{{nodes.sub.output.summary}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "sub" },
    { id: "e2", source: "sub", sourceHandle: "done", target: "end" },
  ],
};

/** A blank workflow with `doc` imported through the editor; returns its id with the editor open on it. */
async function importWorkflow(page: Page, doc: object, nodes: number): Promise<{ id: string; editor: EditorPage }> {
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);
  await page
    .getByTestId("import-file")
    .setInputFiles({ name: "flow.weft.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(doc)) });
  await expect(editor.nodes()).toHaveCount(nodes);
  return { id, editor };
}

test("subflow: the inspector maps a saved workflow's inputs; the parent run waits for the child's run and ends with its output", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "subflow");

  // The child, saved as version 1 (subflows run saved versions).
  const { id: childId } = await importWorkflow(page, child, 2);
  await page.getByTestId("save-version").click();
  await expect(page.getByText("Saved version 1")).toBeVisible();

  // The parent: choosing the child in the inspector lists its input fields; mapping the required one clears the node's issue.
  const { id: parentId, editor } = await importWorkflow(page, parent, 3);
  await expect(editor.node("sub").getByTestId("node-subflow-workflow")).toHaveText("Choose a workflow");
  await editor.selectNode("sub");
  const picker = page.getByTestId("subflow-workflow");
  await expect(picker.locator("option", { hasText: "Topic summary" })).toHaveCount(1);
  await expect(picker.locator("option", { hasText: "this workflow — runs itself" })).toHaveAttribute("value", parentId);
  await picker.selectOption(childId);
  const topic = page.getByTestId("subflow-input-topic");
  await expect(topic).toContainText("topic");
  await expect(topic).toContainText("string");
  await expect(topic).toContainText("required");
  await expect(topic).toContainText("What to write about");
  await expect(page.getByTestId("subflow-open")).toHaveAttribute("href", `/workflows/${childId}/edit`);
  await expect(page.getByTestId("subflow-outputs")).toContainText("{{nodes.sub.output.summary}}");
  await expect(editor.node("sub").getByTestId("node-subflow-workflow")).toHaveText("Topic summary");
  await expect(editor.node("sub").getByTestId("issue-badge")).toBeVisible(); // the required input is not mapped yet
  await editor.setField("subflow-input-topic-value", "{{inputs.subject}}");
  await expect(editor.node("sub").getByTestId("node-subflow-inputs")).toHaveText("topic");
  await expect(editor.node("sub").getByTestId("issue-badge")).toHaveCount(0);
  await editor.save();

  // The parent's run: it starts the child, waits for it, and ends with the child's output.
  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: { subject: "owls" } }),
    });
    return { status: res.status, body: (await res.json()) as { run?: { id?: string } } };
  }, parentId);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const parentRunId = started.body.run!.id!;
  const runPage = new RunPage(page);
  await runPage.goto(parentRunId);
  await expect(runPage.status()).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("run-outputs")).toContainText("About owls");

  // The parent run links to the child run (the subflows card and the step inspector).
  const link = page.getByTestId("subflow-runs").getByTestId("subflow-run-link");
  await expect(link).toContainText("Runs Topic summary");
  // the run's graph names the workflow its subflow node ran
  await expect(page.getByTestId("node-sub").getByTestId("node-subflow-workflow")).toHaveText("Topic summary");
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/runs\/[^/]+$/);
  expect(href).not.toBe(`/runs/${parentRunId}`);
  await runPage.bar("sub").click();
  await expect(page.getByTestId("step-subflow").getByRole("link")).toHaveAttribute("href", href!);
  await expect(page.getByTestId("step-output")).toContainText("About owls");

  // The child run says whose subflow it is and links back.
  await link.click();
  await page.waitForURL(`**${href}`);
  await expect(runPage.status()).toHaveText("succeeded");
  await expect(page.getByTestId("run-outputs")).toContainText("About owls");
  const trigger = page.getByTestId("run-trigger");
  await expect(trigger).toHaveText(`Subflow of ${parentRunId.slice(0, 8)}`);
  await expect(trigger.getByRole("link")).toHaveAttribute("href", `/runs/${parentRunId}`);
});
