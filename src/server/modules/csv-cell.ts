// Beside the modules, like use-cases.ts: batch results, the API usage report and the account
// export all write CSV, and none of those modules should import another for it.

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
