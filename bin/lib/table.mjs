// A notebook table as data ({name, index, columns, rows}) and its three outputs: the text pandas
// prints for display(df) (each float column at 6 decimals, trailing zeros trimmed, right-aligned),
// CSV, and the JSON of pandas' "split" orientation. Also numpy's round and Python's repr.

/** numpy.round(x, decimals): scale, round half to even, unscale (the same float operations). */
export function npRound(x, decimals = 4) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return x;
  const scale = 10 ** decimals;
  const y = x * scale;
  let r = Math.round(y);
  if (Math.abs(y % 1) === 0.5) r = 2 * Math.round(y / 2);
  return r / scale;
}

/** A table: `index` {label, values} (pandas' index; label null for 0..n-1), columns [{label, kind}]. */
export function table(name, columns, rows, { index = null, round = null } = {}) {
  const cols = columns.map((c) => (typeof c === 'string' ? { label: c } : c));
  const data = rows.map((row) => row.map((v, j) => (round !== null && cols[j].kind !== 'int' ? npRound(v, round) : v)));
  return {
    name,
    index: index ?? { label: null, values: rows.map((_, i) => i) },
    columns: cols,
    rows: data,
    round,
  };
}

function isFloatColumn(values, kind) {
  if (kind === 'int' || kind === 'text') return false;
  return values.every((v) => typeof v === 'number' || v === null) && values.some((v) => typeof v === 'number');
}

function cellText(value) {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  }
  return String(value);
}

/** pandas' float column: '%.6f' (or '%.6e' for tiny or huge values), common trailing zeros trimmed. */
export function floatColumn(values) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  const scientific = finite.some((v) => Math.abs(v) >= 1e16 || (v !== 0 && Math.abs(v) < 1e-6));
  if (scientific) return values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v.toExponential(6) : cellText(v)));
  let texts = finite.map((v) => v.toFixed(6));
  while (texts.length && texts.every((s) => s.endsWith('0') && !s.endsWith('.0'))) texts = texts.map((s) => s.slice(0, -1));
  let k = 0;
  return values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? texts[k++] : cellText(v)));
}

/** The text display(df) shows: index left-aligned, every column right-aligned under its label. */
export function renderTable(t) {
  const columns = t.columns.map((c, j) => {
    const values = t.rows.map((row) => row[j]);
    const cells = isFloatColumn(values, c.kind) ? floatColumn(values) : values.map(cellText);
    const width = Math.max(c.label.length, ...cells.map((s) => s.length));
    return { label: c.label.padStart(width), cells: cells.map((s) => s.padStart(width)) };
  });
  const indexCells = t.index.values.map(cellText);
  const indexWidth = Math.max(t.index.label?.length ?? 0, ...indexCells.map((s) => s.length));
  const lines = [[''.padEnd(indexWidth), ...columns.map((c) => c.label)].join('  ')];
  if (t.index.label) lines.push(t.index.label.padEnd(indexWidth));
  t.rows.forEach((_, i) => lines.push([indexCells[i].padEnd(indexWidth), ...columns.map((c) => c.cells[i])].join('  ')));
  return lines.map((line) => line.trimEnd()).join('\n');
}

function csvCell(value) {
  const text = value === null || value === undefined ? '' : cellText(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV (pandas to_csv: the index first; a 0..n-1 index is left out). */
export function tableCsv(t) {
  const withIndex = t.index.label !== null || t.index.values.some((v, i) => v !== i);
  const header = [...(withIndex ? [t.index.label ?? ''] : []), ...t.columns.map((c) => c.label)];
  const rows = t.rows.map((row, i) => [...(withIndex ? [t.index.values[i]] : []), ...row]);
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n')}\n`;
}

/** The table as JSON, pandas' orient="split" plus its name and rounding. */
export function tableJson(t) {
  return { name: t.name, round: t.round, index: t.index.values, indexLabel: t.index.label, columns: t.columns.map((c) => c.label), data: t.rows };
}

/** Python's repr of a JSON-like value: what print() of a dict shows. */
export function pyRepr(value) {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}
