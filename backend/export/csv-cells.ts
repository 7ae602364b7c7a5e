// pins.csv is opened in spreadsheets, which run a cell that starts with =, +, -, @, tab or CR as a
// formula (OWASP "CSV injection"): a pin's title could then fetch a URL or run a command on the
// exporting user's machine. Such a cell is written with a leading single quote, which spreadsheets
// show as text, and a ZIP of images whose pins.csv carries one reads it back without it.

/** A cell that starts like a formula, after any single quotes already in front of it. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A cell csvCellOut quoted: one quote or more, then a formula character. */
const QUOTED_FORMULA = /^'+[=+\-@\t\r]/;

/**
 * A cell as pins.csv writes it: one quote more in front of a text that starts like a formula, even
 * behind quotes of its own (`'=x` becomes `''=x`), so that csvCellIn gives back exactly the text.
 */
export function csvCellOut(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell of a pins.csv as it was before csvCellOut: its added quote taken off, anything else as it is. */
export function csvCellIn(cell: string): string {
  return QUOTED_FORMULA.test(cell) ? cell.slice(1) : cell;
}
