import "@fontsource-variable/inter";
import "./globals.css";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { type ReactNode } from "react";
import { ThemeProvider } from "@/components/layout/theme-provider";
import { Toaster } from "@/components/ui/toaster";

export const metadata: Metadata = {
  title: { default: "Weft", template: "%s · Weft" },
  description: "Describe a multi-agent system in plain language; get an editable workflow graph that runs for real.",
  icons: { icon: "/icon.svg" },
};

/** Every page is rendered per request: its scripts carry the nonce of the CSP proxy.ts set for it. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh font-sans">
        <ThemeProvider nonce={nonce}>
          {children}
          <Toaster />
        </ThemeProvider>
      </body>
    </html>
  );
}
