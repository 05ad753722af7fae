import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";

/** A workflow's schedules on its page: add (with a refused pattern first), pause, resume, delete. */
test("a workflow can be scheduled, paused, resumed and unscheduled from its page", async ({ page }) => {
  await signUpNewUser(page, "schedule");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  await expect(page.getByText("No schedules.")).toBeVisible();

  await page.getByRole("button", { name: "Add schedule" }).click();
  const dialog = page.getByRole("dialog", { name: "Add schedule" });
  await expect(dialog.getByLabel("Cron pattern")).toHaveValue("0 9 * * 1-5");
  await expect(dialog.getByLabel("Inputs (JSON)")).toHaveValue(/"topic": "What the article is about"/);
  await dialog.getByLabel("Cron pattern").fill("61 * * * *");
  await dialog.getByLabel("Time zone").fill("Europe/Berlin");
  await dialog.getByLabel("Inputs (JSON)").fill('{"topic": "owls"}');
  await dialog.getByRole("button", { name: "Add schedule" }).click();
  await expect(dialog.getByText(/^Not a valid cron pattern/)).toBeVisible();
  // a refused submit keeps what was typed
  await expect(dialog.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(dialog.getByLabel("Inputs (JSON)")).toHaveValue('{"topic": "owls"}');
  await dialog.getByLabel("When").selectOption({ label: "Weekdays at 09:00" });
  await expect(dialog.getByLabel("Cron pattern")).toHaveValue("0 9 * * 1-5");
  await dialog.getByRole("button", { name: "Add schedule" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("schedule-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("0 9 * * 1-5");
  await expect(row.getByTestId("schedule-next")).toHaveText(
    /^Next: (Mon|Tue|Wed|Thu|Fri), \w{3} \d{1,2}, 09:00 \(Europe\/Berlin\)$/,
  );
  // the template's workflow has no saved version yet, so the page says a tick would start nothing
  await expect(page.getByRole("note").filter({ hasText: "No saved version yet" })).toBeVisible();

  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByText("Paused", { exact: true })).toBeVisible();
  await expect(row.getByTestId("schedule-next")).toHaveText("Paused: no next run");
  await row.getByRole("button", { name: "Resume" }).click();
  await expect(row.getByTestId("schedule-next")).toHaveText(/^Next: /);

  await page.reload();
  await expect(page.getByTestId("schedule-row")).toContainText("Europe/Berlin");

  // edit: the form opens with the schedule's own pattern, zone and inputs; a refusal keeps the edit open
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit schedule" });
  await expect(edit.getByLabel("Cron pattern")).toHaveValue("0 9 * * 1-5");
  await expect(edit.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(edit.getByLabel("Inputs (JSON)")).toHaveValue(/"topic": "owls"/);
  await edit.getByLabel("Inputs (JSON)").fill('{"topic": "owls", "colour": "red"}');
  await edit.getByRole("button", { name: "Save schedule" }).click();
  await expect(edit.getByText(/^The inputs do not match/)).toBeVisible();
  await edit.getByLabel("Inputs (JSON)").fill('{"topic": "elk"}');
  await edit.getByLabel("When").selectOption({ label: "Every day at 09:00" });
  await edit.getByRole("button", { name: "Save schedule" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("0 9 * * *");
  await page.getByRole("button", { name: "Delete schedule 0 9 * * *" }).click();
  await expect(page.getByText("No schedules.")).toBeVisible();
});
