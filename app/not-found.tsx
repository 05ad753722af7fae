import Link from "next/link";
import { Logo } from "@/components/layout/logo";
import { buttonClasses } from "@/components/ui/button";

/** 404: also what another user's workflow or run looks like (no hint that it exists). */
export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo href="/" />
      <div>
        <p className="text-sm font-medium text-primary">404</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Page not found</h1>
        <p className="mt-2 max-w-sm text-sm text-muted">
          This page doesn&apos;t exist, or you don&apos;t have access to it.
        </p>
      </div>
      <Link href="/workflows" className={buttonClasses("primary")}>
        Back to workflows
      </Link>
    </main>
  );
}
