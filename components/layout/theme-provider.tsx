"use client";
import { ThemeProvider as NextThemes } from "next-themes";
import { type ReactNode } from "react";

/**
 * Light/dark theme via a class on <html>; follows the system until the user picks one. `nonce` is
 * the page's CSP nonce, which the theme's inline script needs to run. Transitions are switched off
 * by the toggle around a change (theme-toggle.tsx), not here: next-themes' own option does it on
 * every mount too, adding and removing a global style, two style passes over the whole page (B3:
 * 120 ms each on a 500-node canvas) before anyone could have changed anything.
 */
export function ThemeProvider({ children, nonce }: { children: ReactNode; nonce?: string }) {
  return (
    <NextThemes attribute="class" defaultTheme="system" enableSystem nonce={nonce}>
      {children}
    </NextThemes>
  );
}
