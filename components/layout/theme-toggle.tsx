"use client";
import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { buttonClasses } from "@/components/ui/button";

const ORDER = ["system", "light", "dark"] as const;
const LABEL = { system: "System theme", light: "Light theme", dark: "Dark theme" } as const;
const noop = () => () => {};

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
      onClick={() => setTheme(next)}
    >
      <Icon />
    </button>
  );
}
