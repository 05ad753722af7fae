import { CronExpressionParser } from "cron-parser";

/** The named patterns a schedule may use besides five cron fields. */
const ALIASES: Record<string, string> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
  "@yearly": "0 0 1 1 *",
  "@weekdays": "0 0 * * 1-5",
};

/** A refusal names the field at fault: the pattern or the zone. */
export type CronCheck =
  { ok: true; pattern: string; next: Date[] } | { ok: false; field: "cron" | "timezone"; message: string };

/** Whether `timezone` is an IANA zone this runtime knows ("UTC" included). */
export function isTimeZone(timezone: string): boolean {
  if (!timezone || timezone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a schedule's pattern: five cron fields (minute hour day-of-month month day-of-week) or one
 * of ALIASES, read in `timezone`. A seconds field is refused, so a schedule fires at most once a
 * minute. Answers the normalised pattern and its next `count` fire times after `from`.
 */
export function checkCron(cron: string, timezone: string, from = new Date(), count = 3): CronCheck {
  const text = cron.trim().replace(/\s+/g, " ");
  const pattern = ALIASES[text.toLowerCase()] ?? text;
  if (!isTimeZone(timezone))
    return {
      ok: false,
      field: "timezone",
      message: `Unknown time zone "${timezone}": use an IANA name such as Europe/Berlin or UTC.`,
    };
  const fields = pattern.split(" ").length;
  if (pattern.startsWith("@") || fields !== 5) {
    return {
      ok: false,
      field: "cron",
      message: `Use five cron fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5", or one of ${Object.keys(ALIASES).join(", ")}.`,
    };
  }
  try {
    const expression = CronExpressionParser.parse(pattern, { tz: timezone, currentDate: from, strict: false });
    const next = Array.from({ length: count }, () => expression.next().toDate());
    return { ok: true, pattern, next };
  } catch (err) {
    return {
      ok: false,
      field: "cron",
      message: `Not a valid cron pattern: ${err instanceof Error ? err.message : String(err)}.`,
    };
  }
}
