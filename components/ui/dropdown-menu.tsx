"use client";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { cn } from "./cn";

interface DropdownMenuProps {
  /** Content of the trigger button. */
  trigger: ReactNode;
  /** Accessible name of the trigger. */
  label: string;
  /** Items: elements with role="menuitem" (use DropdownItem). */
  children: ReactNode;
  align?: "start" | "end";
  triggerClassName?: string;
}

/**
 * A menu button: Enter/Space/ArrowDown open it and focus the first item, arrows move, Esc and
 * outside clicks close it and return focus to the trigger.
 */
export function DropdownMenu({ trigger, label, children, align = "end", triggerClassName }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const items = () =>
    Array.from(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      setOpen(false);
      button.current?.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return setOpen(true);
      const next = e.key === "ArrowDown" ? (at + 1) % list.length : (at - 1 + list.length) % list.length;
      list[next]?.focus();
    } else if (e.key === "Tab") {
      setOpen(false);
    }
  };

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        className={triggerClassName}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          onClick={() => setTimeout(() => setOpen(false), 0)}
          className={cn(
            "absolute z-50 mt-2 min-w-52 rounded-md border border-border bg-surface p-1 shadow-lg",
            align === "end" ? "right-0" : "left-0",
          )}
        >
          {children}
        </div>
      )}
    </div>
  );
}

/**
 * A menu row; pass `type="submit"` inside a form for server actions. The menu closes on the next
 * task after a click, so a submit button's form is still mounted when the browser submits it.
 */
export function DropdownItem({ className, ...rest }: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      role="menuitem"
      type="button"
      className={cn(
        "flex w-full items-center gap-2 rounded px-2.5 py-1.5 text-left text-sm text-foreground outline-none hover:bg-surface-2 focus:bg-surface-2 cursor-pointer",
        className,
      )}
      {...rest}
    />
  );
}

/** A non-interactive heading row inside a menu. */
export function DropdownLabel({ children }: { children: ReactNode }) {
  return <div className="px-2.5 py-1.5 text-xs text-muted">{children}</div>;
}

export function DropdownSeparator() {
  return <div role="separator" className="my-1 h-px bg-border" />;
}
