import { chromium } from "@playwright/test";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const width of [1280, 390]) {
  const p = await b.newPage({ viewport: { width, height: 900 } });
  await p.goto("http://localhost:3000/sign-in");
  await p.getByLabel("Email").fill("demo@weft.local");
  await p.getByLabel("Password").fill("weft-demo-password");
  await p.getByRole("button", { name: /Sign in/ }).click();
  await p.waitForURL("**/workflows");
  const wf = await p.getByRole("table").getByRole("link").first().getAttribute("href");
  await p.goto("http://localhost:3000/runs");
  const run = await p.getByRole("table").getByRole("link").first().getAttribute("href").catch(() => null);
  const pages = ["/workflows", "/workflows/new", wf, wf + "/edit", "/runs", run, "/agents", "/tools", "/knowledge", "/settings"].filter(Boolean);
  for (const path of pages) {
    await p.goto("http://localhost:3000" + path);
    await p.waitForTimeout(700);
    const [sw, cw] = await p.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (sw > cw) {
      const culprit = await p.evaluate((cw) => {
        const out = [];
        for (const el of document.querySelectorAll("body *")) {
          const r = el.getBoundingClientRect();
          if (r.right > cw + 1 && el.children.length === 0) out.push(`${el.tagName}.${(el.className?.toString?.() ?? "").slice(0, 60)} right=${Math.round(r.right)} text=${(el.textContent ?? "").slice(0, 40)}`);
        }
        return out.slice(0, 4);
      }, cw);
      console.log(width, path, "OVERFLOW", sw, cw, "\n   " + culprit.join("\n   "));
    } else console.log(width, path, "ok");
  }
  await p.close();
}
await b.close();
