import { expect, type Page } from "@playwright/test";

/** A fresh, unique account for one test. */
export function newAccount(tag: string) {
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  return { name: `E2E ${tag}`, email: `e2e-${tag}-${id}@example.com`, password: "correct horse battery staple" };
}
export type Account = ReturnType<typeof newAccount>;

/** /sign-up */
export class SignUpPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/sign-up");
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  }

  async signUp(account: Account) {
    await this.page.getByLabel("Name").fill(account.name);
    await this.page.getByLabel("Email").fill(account.email);
    await this.page.getByLabel("Password").fill(account.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }
}

/** /sign-in */
export class SignInPage {
  constructor(private readonly page: Page) {}

  readonly alert = () => this.page.locator("form").getByRole("alert");

  async goto() {
    await this.page.goto("/sign-in");
    await expect(this.page.getByRole("heading", { name: "Sign in to Weft" })).toBeVisible();
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }
}

/** The signed-in shell: header navigation and the account menu. */
export class AppShell {
  constructor(private readonly page: Page) {}

  async nav(section: "Workflows" | "Runs" | "Agents" | "Settings") {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: section }).click();
    await expect(this.page.getByRole("heading", { level: 1, name: section })).toBeVisible();
  }

  async signOut() {
    await this.page.getByRole("button", { name: "Account menu" }).click();
    await this.page.getByRole("menuitem", { name: "Sign out" }).click();
    await this.page.waitForURL("**/sign-in");
  }
}

/** Signs a new account up through the UI, then signs in with it (sign-up never signs in) and waits for the workflows list. */
export async function signUpNewUser(page: Page, tag: string): Promise<Account> {
  const account = newAccount(tag);
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.signUp(account);
  await page.waitForURL("**/sign-in?signed-up=1");
  await new SignInPage(page).signIn(account.email, account.password);
  await page.waitForURL("**/workflows");
  return account;
}
