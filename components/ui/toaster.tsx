"use client";
import { useTheme } from "next-themes";
import { Toaster as Sonner } from "sonner";

/** Sonner's toaster following the current theme; call `toast()` from "sonner" anywhere on the client. */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return <Sonner theme={resolvedTheme === "dark" ? "dark" : "light"} position="bottom-right" richColors closeButton />;
}
