"use client";
import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { buttonClasses } from "@/components/ui/button";

const ORDER = ["system", "light", "dark"] as const;
const LABEL = { system: "System theme", light: "Light theme", dark: "Dark theme" } as const;
const noop = () => () => {};

/**
 * Sets the theme with CSS transitions off until it has been applied, so colours switch at once
 * instead of animating element by element (`.theme-switching` in app/globals.css). next-themes
 * applies the class in an effect after the render; two frames later it has.
 */
function switchTheme(setTheme: (theme: string) => void, theme: string) {
  const html = document.documentElement;
  html.classList.add("theme-switching");
  setTheme(theme);
  requestAnimationFrame(() => requestAnimationFrame(() => html.classList.remove("theme-switching")));
}

/** Cycles system → light → dark; the icon shows the current choice. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const mounted = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  const current = mounted && (theme === "light" || theme === "dark") ? theme : "system";
  const next = ORDER[(ORDER.indexOf(current) + 1) % ORDER.length] ?? "system";
  const Icon = current === "light" ? SunIcon : current === "dark" ? MoonIcon : MonitorIcon;
  return (
    <button
      type="button"
      className={buttonClasses("ghost", "icon")}
      aria-label={`${LABEL[current]} (switch to ${next})`}
      title={LABEL[current]}
      onClick={() => switchTheme(setTheme, next)}
    >
      <Icon />
    </button>
  );
}
