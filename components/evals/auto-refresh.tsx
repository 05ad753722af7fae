"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Reloads the page's server data every `ms` while `active` (an experiment's progress). */
export function AutoRefresh({ active, ms = 1500 }: { active: boolean; ms?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => router.refresh(), ms);
    return () => clearInterval(t);
  }, [active, ms, router]);
  return null;
}
