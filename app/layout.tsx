import "@fontsource-variable/inter";
import "./globals.css";
import type { Metadata } from "next";
import localFont from "next/font/local";
import { headers } from "next/headers";
import { type ReactNode } from "react";
import { ThemeProvider } from "@/components/layout/theme-provider";
import { Toaster } from "@/components/ui/toaster";

export const metadata: Metadata = {
  title: { default: "Weft", template: "%s · Weft" },
  description: "Describe a multi-agent system in plain language; get an editable workflow graph that runs for real.",
  icons: { icon: "/icon.svg" },
};

/**
 * Inter's Latin file (the one nearly every page needs) through next/font: preloaded with the page, so
 * text is laid out once in Inter rather than in a fallback and again when the font arrives (a second
 * style, layout and paint of the editor's canvas). Other scripts' files come from @fontsource's
 * unicode ranges ("Inter Variable", next in the --font-sans stack).
 */
const interLatin = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  display: "swap",
  // no metric-matched Arial behind it: a glyph outside Latin falls through to "Inter Variable"'s other files
  adjustFontFallback: false,
  variable: "--font-inter-latin",
});

/** Every page is rendered per request: its scripts carry the nonce of the CSP proxy.ts set for it. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" className={interLatin.variable} suppressHydrationWarning>
      <body className="min-h-dvh font-sans">
        <ThemeProvider nonce={nonce}>
          {children}
          <Toaster />
        </ThemeProvider>
      </body>
    </html>
  );
}
