import { expect, test } from "@playwright/test";
import { newAccount, SignInPage } from "./pages/auth-pages";

test("credentials sign-in answers 429 with Retry-After after 5 failures (W6), and the form says so", async ({
  request,
  page,
}) => {
  const { email } = newAccount("limited");
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const attempt = () =>
    request.post("/api/auth/callback/credentials", {
      form: { email, password: "not the password", csrfToken },
      maxRedirects: 0,
    });

  for (let i = 0; i < 5; i++) {
    const res = await attempt();
    expect(res.status(), `attempt ${i + 1}`).toBe(302);
    expect(res.headers().location).toContain("error=CredentialsSignin");
  }
  const limited = await attempt();
  expect(limited.status()).toBe(429);
  const retryAfter = Number(limited.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(await limited.json()).toMatchObject({ error: { code: "rate_limited" } });

  // The browser may share the request fixture's address (the client address is the socket's,
  // whatever headers say) or reach the server over another loopback address: the form uses an
  // email of its own, which gets five failures before the form says it is limited.
  const other = newAccount("limited-form").email;
  const signIn = new SignInPage(page);
  await signIn.goto();
  for (let i = 0; i < 5; i++) {
    await signIn.signIn(other, `wrong password ${i}`);
    await expect(signIn.alert()).toHaveText("Incorrect email or password.");
    await page.reload();
  }
  await signIn.signIn(other, "whatever it is");
  await expect(signIn.alert()).toContainText("Too many sign-in attempts");
  await expect(page.getByRole("button", { name: /Try again in \d+s/ })).toBeDisabled();
});

test("cross-site and text/plain POSTs to the auth handler are refused (W4)", async ({ request }) => {
  const crossOrigin = await request.post("/api/auth/callback/credentials", {
    form: { email: "a@example.com", password: "x" },
    headers: { origin: "http://evil.example" },
    maxRedirects: 0,
  });
  expect(crossOrigin.status()).toBe(403);
  const plain = await request.post("/api/auth/signout", {
    data: "callbackUrl=/",
    headers: { "content-type": "text/plain" },
    maxRedirects: 0,
  });
  expect(plain.status()).toBe(403);
});

test("health reports PostgreSQL and Redis", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true, postgres: { ok: true }, redis: { ok: true }, failed: [] });
});
