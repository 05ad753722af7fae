"use client";
import { ThemeProvider as NextThemes } from "next-themes";
import { type ReactNode } from "react";

/** Light/dark theme via a class on <html>; follows the system until the user picks one. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemes attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      {children}
    </NextThemes>
  );
}
