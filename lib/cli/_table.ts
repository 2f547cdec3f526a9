// The tables `ls` commands print: columns padded to their widest cell, two
// spaces apart, the last column unpadded.

/** `rows` (the header first) as lines of padded columns, each ending in a newline. */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((row) => row[i].length))
  );
  return rows.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i]))
      .join("  ")
  ).join("\n") + "\n";
}
