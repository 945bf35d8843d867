// Small DOM helpers shared by the sections: element builder, number formatting, accessible
// tables, labelled controls with an error slot, and the form loop (read -> compute -> commit).
import { errorKey, errorText } from './core-errors.js';

let uid = 0;
export const nextId = (prefix) => `${prefix}-${(uid += 1)}`;

/** Resolves in a task of its own: the browser paints and answers input in between. */
export const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** h('p', {class: 'x', text: 'hi'}, child, ...) */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'class') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Fixed decimals like pandas' .round(4); no "-0.0000"; ∞ for infinity. */
export function fmt(value, digits = 4) {
  if (typeof value !== 'number') return String(value);
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** Short number for labels: up to 4 significant decimals, trailing zeros dropped. */
export function short(value) {
  if (!Number.isFinite(value)) return fmt(value);
  return String(Number(value.toFixed(4)));
}

/**
 * An accessible, horizontally scrollable table.
 * columns: [{label: string|Node, numeric?: bool, className?}]; rows: arrays of cells, each a
 * string, a Node, or {text, value, className, header} (value becomes data-value).
 */
export function dataTable({ caption, columns, rows, className = '' }) {
  const table = h('table', { class: `data ${className}`.trim() });
  if (caption) table.append(h('caption', {}, caption));
  const head = h('tr');
  for (const column of columns) {
    head.append(h('th', { scope: 'col', class: column.numeric ? 'num' : undefined }, column.label));
  }
  table.append(h('thead', {}, head));
  const body = h('tbody');
  for (const row of rows) {
    const tr = h('tr', { class: row.className });
    (row.cells ?? row).forEach((cell, i) => {
      const spec = cell !== null && typeof cell === 'object' && !(cell instanceof Node) ? cell : { text: cell };
      const tag = spec.header ? 'th' : 'td';
      const classes = [columns[i]?.numeric ? 'num' : '', spec.className ?? ''].join(' ').trim();
      const td = h(tag, {
        class: classes || undefined,
        scope: spec.header ? 'row' : undefined,
        'data-value': spec.value === undefined ? undefined : String(spec.value),
      });
      td.append(spec.node ?? spec.text ?? '');
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(body);
  const label = typeof caption === 'string' ? caption : caption?.textContent;
  return h('div', { class: 'table-wrap', role: 'region', tabindex: '0', 'aria-label': label || undefined }, table);
}

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Reads a number field: '' -> null (the core says "is required"), non-numbers stay strings. */
export function readNumber(raw) {
  const text = raw.trim().replace(/\u2212/g, '-');
  if (text === '') return null;
  return NUMBER_RE.test(text) ? Number(text) : text;
}

/** Reads a list field: tokens split on commas/semicolons/spaces, each a number or left a string. */
export function readList(raw) {
  return raw
    .split(/[,;\s]+/)
    .map((token) => token.trim())
    .filter(Boolean)
    .map((token) => readNumber(token));
}

export function showList(values) {
  return values.map(String).join(', ');
}

/**
 * A labelled control with a hint and an error slot (aria-describedby, aria-invalid).
 * kind: 'number' | 'list' | 'text' | 'textarea' | 'select' | 'checkbox' | 'range'.
 * Returns {el, input, key, read(), write(value), setError(message|null)}.
 */
export function field({ key, label, hint, kind = 'number', options = [], min, max, step, value, wide }) {
  const id = nextId(`f-${key.replace(/\W/g, '-')}`);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  let input;
  if (kind === 'select') {
    input = h('select', { id });
    for (const option of options) input.append(h('option', { value: option.value, text: option.label }));
  } else if (kind === 'textarea') {
    input = h('textarea', { id, rows: 3, spellcheck: 'false' });
  } else if (kind === 'checkbox') {
    input = h('input', { id, type: 'checkbox' });
  } else if (kind === 'range') {
    input = h('input', { id, type: 'range', min, max, step: step ?? 1 });
  } else {
    input = h('input', {
      id,
      type: 'text',
      inputmode: kind === 'number' ? 'decimal' : undefined,
      autocomplete: 'off',
      spellcheck: 'false',
    });
  }
  input.dataset.key = key;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  input.setAttribute('aria-describedby', describedBy);
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const labelNode = h('label', { for: id }, label);
  const output = kind === 'range' ? h('output', { for: id, class: 'range-value' }) : null;
  const el =
    kind === 'checkbox'
      ? h('div', { class: 'field field-check' }, h('div', { class: 'check-row' }, input, labelNode), error)
      : h(
          'div',
          { class: `field${wide ? ' field-wide' : ''}` },
          labelNode,
          h('div', { class: 'input-row' }, input, output),
          hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
          error,
        );
  if (kind === 'number' && step) addArrowKeys(input, step, min, max);

  const api = {
    el,
    input,
    key,
    kind,
    read() {
      if (kind === 'checkbox') return input.checked;
      if (kind === 'range') return Number(input.value);
      if (kind === 'number') return readNumber(input.value);
      if (kind === 'list') return readList(input.value);
      return input.value;
    },
    write(next) {
      if (kind === 'checkbox') input.checked = Boolean(next);
      else if (kind === 'list') input.value = showList(next);
      else input.value = next === null || next === undefined ? '' : String(next); // null: None
      if (output) output.textContent = String(next);
    },
    setError(message) {
      error.hidden = !message;
      error.textContent = message ?? '';
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    showValue() {
      if (output) output.textContent = input.value;
    },
  };
  if (value !== undefined) api.write(value);
  return api;
}

function addArrowKeys(input, step, min, max) {
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const current = Number(input.value.trim());
    if (!Number.isFinite(current)) return;
    event.preventDefault();
    let next = current + (event.key === 'ArrowUp' ? step : -step);
    if (min !== undefined) next = Math.max(min, next);
    if (max !== undefined) next = Math.min(max, next);
    input.value = String(Number(next.toFixed(6)));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/**
 * The widget loop: on every edit, read all fields, compute (the core validates), then either
 * commit the values and render, or show the core's message (in the page's language) beside the
 * field its error.field names (or the one just edited) and mark the outputs stale. The rest of the
 * page keeps working.
 *   fields: array of field() results; params: {coreParamName: stateKey}
 */
export function bindForm({ fields, params = {}, compute, render, commit, outputs, statusNode, staleText }) {
  let timer = null;
  const staleNote = outputs && staleText ? h('p', { class: 'stale-note', hidden: true, text: staleText }) : null;
  if (staleNote) outputs.prepend(staleNote);
  let lastSource = null;
  const byKey = new Map(fields.map((f) => [f.key, f]));

  // The field an error belongs to: the one it names, else the one just edited.
  const attribute = (error) => byKey.get(errorKey(error, params)) || lastSource || fields[0];

  const run = () => {
    const draft = {};
    for (const f of fields) draft[f.key] = f.read();
    let model;
    try {
      model = compute(draft);
    } catch (error) {
      for (const f of fields) f.setError(null);
      const text = errorText(error);
      attribute(error).setError(text);
      outputs?.classList.add('stale');
      if (staleNote) staleNote.hidden = false;
      if (statusNode) statusNode.textContent = text;
      return false;
    }
    for (const f of fields) f.setError(null);
    outputs?.classList.remove('stale');
    if (staleNote) staleNote.hidden = true;
    if (statusNode) statusNode.textContent = '';
    commit(draft);
    render(model, draft);
    return true;
  };

  for (const f of fields) {
    const immediate = f.kind === 'select' || f.kind === 'checkbox' || f.kind === 'range';
    f.input.addEventListener(immediate ? 'change' : 'input', () => {
      lastSource = f;
      f.showValue();
      clearTimeout(timer);
      if (immediate) run();
      else timer = setTimeout(run, 120);
    });
    if (f.kind === 'range') {
      f.input.addEventListener('input', () => {
        lastSource = f;
        f.showValue();
        run();
      });
    }
  }
  return { run, flush: () => (clearTimeout(timer), run()) };
}

/** Saves `blob` as the file `name` (a hidden link's download; the URL is revoked after a while). */
export function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
