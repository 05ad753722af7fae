"use client";
import { ThemeProvider as NextThemes } from "next-themes";
import { type ReactNode } from "react";

/**
 * Light/dark theme via a class on <html>; follows the system until the user picks one. `nonce` is
 * the page's CSP nonce, which the theme's inline script needs to run.
 */
export function ThemeProvider({ children, nonce }: { children: ReactNode; nonce?: string }) {
  return (
    <NextThemes attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
      {children}
    </NextThemes>
  );
}
