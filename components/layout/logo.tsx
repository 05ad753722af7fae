import Link from "next/link";

/** The Weft mark (three woven strands) and name; links home. */
export function Logo({ href = "/workflows" }: { href?: string }) {
  return (
    <Link href={href} className="flex shrink-0 items-center gap-2 font-semibold tracking-tight text-foreground">
      <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden className="text-primary">
        <rect width="24" height="24" rx="6" fill="currentColor" />
        <path d="M5 8h14M5 12h14M5 16h14" stroke="white" strokeOpacity="0.55" strokeWidth="1.6" />
        <path d="M9 5v14M15 5v14" stroke="white" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span>Weft</span>
    </Link>
  );
}
