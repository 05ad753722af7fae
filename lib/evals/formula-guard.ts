/**
 * Spreadsheet formula injection (CSV injection): a cell that starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return is run as a formula by Excel, LibreOffice and Google Sheets. An exported
 * cell that would start so gets a leading `'` (shown as text by spreadsheets), and an imported one
 * loses it again, so an export still imports as the same rows. A value that itself starts with
 * quotes before such a character gets one more, so the round trip holds for every string.
 */
const GUARDED = /^'*[=+\-@\t\r]/;
const UNGUARD = /^'+[=+\-@\t\r]/;

/** The cell as written to a CSV file. */
export const guardCell = (s: string): string => (GUARDED.test(s) ? `'${s}` : s);

/** The cell as read from a CSV file. */
export const unguardCell = (s: string): string => (UNGUARD.test(s) ? s.slice(1) : s);
