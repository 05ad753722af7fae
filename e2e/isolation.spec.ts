import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { WorkflowsPage } from "./pages/workflows-page";

test("user B gets 404 on user A's workflow, header tricks included (W1, W5)", async ({ browser }) => {
  const a = await browser.newContext();
  const pageA = await a.newPage();
  await signUpNewUser(pageA, "owner");
  const id = await new WorkflowsPage(pageA).createBlank();
  await a.close();

  const b = await browser.newContext();
  const pageB = await b.newPage();
  await signUpNewUser(pageB, "intruder");
  const res = await pageB.goto(`/workflows/${id}`);
  expect(res?.status()).toBe(404);
  await expect(pageB.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect(await pageB.content()).not.toContain("Untitled workflow");

  const tricked = await pageB.request.get(`/workflows/${id}`, {
    headers: { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" },
  });
  expect(tricked.status()).toBe(404);
  await b.close();
});

test("signed out, x-middleware-subrequest unlocks nothing", async ({ request }) => {
  const res = await request.get("/workflows", {
    headers: { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(307);
  expect(res.headers().location).toContain("/sign-in");
});
