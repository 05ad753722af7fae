import { expect, test } from "@playwright/test";
import { buildDocx, buildPdf } from "@/lib/kb/testing/fixtures";
import { signUpNewUser } from "./pages/auth-pages";

/**
 * Knowledge base end to end (embeddings from the e2e scripted server on 4110): create a collection,
 * upload a PDF, a DOCX and a CSV plus a corrupt PDF and an unsupported file in one go; the good files
 * are added with chunk counts, the bad ones stay listed with their reason; search finds the PDF's page;
 * a question asked with sources is answered by the user's default model (the scripted demo model,
 * which cites the best match) and shows the cited chunk; delete a document; the nav link leads back to
 * the list, where a question asked of all collections names the cited chunk's collection.
 */
test("create a collection, upload files (with clear refusals), search, ask with sources, delete", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpNewUser(page, "knowledge");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
  await expect(page.getByRole("heading", { name: "Knowledge", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No collections yet" })).toBeVisible();

  await page.getByLabel("Collection name").fill("Filings");
  await page.getByLabel("Description (optional)").fill("Annual reports");
  await page.getByRole("button", { name: "Create collection" }).click();
  await expect(page.getByRole("heading", { name: "Filings", level: 1 })).toBeVisible();

  await page.getByTestId("kb-file-input").setInputFiles([
    {
      name: "report.pdf",
      mimeType: "application/pdf",
      buffer: buildPdf([["Annual report"], ["Revenue grew 12 percent to 48 million euros."]]),
    },
    {
      name: "policy.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: buildDocx([{ heading: 1, text: "Refunds" }, "Returns are accepted within 30 days."]),
    },
    { name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from("product,price\nKettle,39\nToaster,25\n") },
    { name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 this is not really a pdf") },
    { name: "slides.pptx", mimeType: "application/octet-stream", buffer: Buffer.from("PK\u0003\u0004") },
  ]);
  const item = (name: string) => page.getByTestId("kb-upload-item").filter({ hasText: name });
  await expect(item("slides.pptx")).toHaveAttribute("data-state", "error");
  await expect(item("slides.pptx")).toContainText("Unsupported file type");
  for (const name of ["report.pdf", "policy.docx", "prices.csv"])
    await expect(item(name)).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await expect(item("broken.pdf")).toHaveAttribute("data-state", "error", { timeout: 60_000 });
  await expect(item("broken.pdf")).toContainText("could not be read as a PDF");

  const rows = page.getByTestId("kb-document-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "report.pdf" })).toContainText("2 pages");

  await page.getByTestId("kb-search-input").fill("How much did revenue grow?");
  await page.getByRole("button", { name: "Search" }).click();
  const first = page.getByTestId("kb-search-results").locator("li").first();
  await expect(first).toContainText("report.pdf");
  await expect(first).toContainText("page 2");
  await expect(first).toContainText("Revenue grew 12 percent");

  await page.getByTestId("kb-ask-input").fill("How much did revenue grow?");
  await page.getByRole("button", { name: "Ask", exact: true }).click();
  await expect(page.getByTestId("kb-answer-text")).toContainText("[S1]");
  await expect(page.getByTestId("kb-answer")).toContainText("cites S1");
  const cited = page.getByTestId("kb-answer-citations").locator("li");
  await expect(cited).toHaveCount(1);
  await expect(cited.first()).toContainText("report.pdf");
  await expect(cited.first()).toContainText("page 2");
  await expect(cited.first()).toContainText("Revenue grew 12 percent");

  await rows.filter({ hasText: "prices.csv" }).getByRole("button", { name: "Delete prices.csv" }).click();
  await page.getByRole("button", { name: "Delete document" }).click();
  await expect(rows).toHaveCount(2);

  await page.getByRole("link", { name: "Knowledge" }).first().click();
  await expect(page.getByTestId("kb-collections")).toContainText("2 documents");

  // asked across all collections, a cited source also names its collection
  await page.getByTestId("kb-ask-input").fill("How much did revenue grow?");
  await page.getByRole("button", { name: "Ask", exact: true }).click();
  const cross = page.getByTestId("kb-answer-citations").locator("li");
  await expect(cross).toHaveCount(1);
  await expect(cross.first()).toContainText("Filings ›");
  await expect(cross.first()).toContainText("report.pdf");
});
