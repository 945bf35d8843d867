// Section 1, the verifier: the notebook's five cases checked live, a free box with presets.
import { h, field, bindForm, dataTable } from '../dom.js';
import { has } from '../i18n.js';
import { notice } from './common.js';

// The notebook's cases, character for character (Python raw strings keep the doubled backslash).
export const CASES = [
  ['Final: \\\\boxed{3/7}', '0.428571', 1],
  ['The reference number 42 is mentioned, but the answer is 41', '42', 0],
  ['First \\\\boxed{2}, then corrected: \\\\boxed{3}', '3', 1],
  ['No numerical answer', '5', 0],
  ['1/0', '0', 0],
];

export const PRESETS = {
  earlier: ['The reference number 42 is mentioned, but the answer is 41', '42'],
  corrected: ['First \\boxed{2}, then corrected: \\boxed{3}', '3'],
  divzero: ['1/0', '0'],
  word: ['The molecule is H2O and the code is AB12CD', '12'],
  unclosed: ['So the answer is \\boxed{5', '5'],
  fraction: ['Therefore x = \\dfrac{3}{7}', '0.428571'],
  // What real datasets write (docs/verifier.md section 6).
  unit: ['It weighs **5kg**, not 5cm2 or 5²', '5'],
  latexRef: ['\\boxed{0.5}', '\\dfrac{1}{2}'],
  escaped: ['Final: \\\\boxed{\\\\frac{3}{7}}', '3 / 7'],
  currency: ['The total is \\boxed{\\$1,250}', '1,250'],
  degrees: ['\\boxed{30^\\circ}', '30°'],
};

/**
 * The core's reason in the page's language: the dictionary text of `reasonCode` with its
 * parameters filled in, the reader's own text (content, candidate) and LaTeX shown as code.
 */
export function reasonNode(t, check) {
  if (!check.reasonCode) return h('span', { text: check.reason ?? '' });
  const template = t(`verifier.reason.${check.reasonCode}`);
  const params = check.reasonParams ?? {};
  const parts = template.split(/\{(\w+)\}/);
  const nodes = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i];
    if (i % 2 === 0) {
      nodes.push(part);
    } else if (!(part in params)) {
      nodes.push(`{${part}}`);
    } else if (part === 'value' || part === 'reference') {
      nodes.push(params[part]);
    } else {
      // The box marker keeps the brace the template writes after it: one code span, \boxed{...}.
      let code = params[part];
      if (part === 'box') {
        const brace = parts[i + 1].match(/^\{(\.\.\.)?\}?/)?.[0] ?? '';
        code += brace;
        parts[i + 1] = parts[i + 1].slice(brace.length);
      }
      nodes.push(h('code', { text: code }));
    }
  }
  return h('span', {}, ...nodes);
}

export const schema = {
  'v.text': { kind: 'text', default: CASES[0][0], maxLength: 2000 },
  'v.ref': { kind: 'text', default: CASES[0][1], maxLength: 200 },
};

const PARAMS = { text: 'v.text', reference: 'v.ref' };

export default {
  id: 'verifier',
  number: 1,
  titleKey: 'verifier.title',
  bodyKey: 'verifier.body',
  schema,
  params: PARAMS,
  validate(core, values) {
    core.checkNumericAnswer(values['v.text'], values['v.ref']);
  },
  mount(host, ctx) {
    const { t, core } = ctx;
    host.append(ctx.rich(t('verifier.formula')));

    // The five cases.
    const statusText = (status) => t(`verifier.status.${status}`);
    const rows = CASES.map(([text, reference, expected], i) => {
      const observed = core.verifyNumericAnswer(text, reference);
      const detail = core.checkNumericAnswer(text, reference);
      const pass = observed === expected;
      return {
        pass,
        cells: [
          { text: String(i + 1), header: true },
          { node: h('code', { text }) },
          { node: h('code', { text: reference }) },
          { text: String(observed), value: observed },
          { text: String(expected), value: expected },
          { text: statusText(detail.status), value: detail.status },
          {
            node: h('span', { class: pass ? 'mark-pass' : 'mark-fail' }, pass ? '✓ ' : '✗ ', t(pass ? 'common.pass' : 'common.fail')),
            value: pass ? 'pass' : 'fail',
          },
        ],
      };
    });
    const failed = rows.filter((row) => !row.pass).length;
    const casesTable = dataTable({
      caption: t('verifier.casesCaption'),
      className: 'verifier-cases',
      columns: [
        { label: '#' },
        { label: t('verifier.col.text') },
        { label: t('verifier.col.reference') },
        { label: t('verifier.col.observed'), numeric: true },
        { label: t('verifier.col.expected'), numeric: true },
        { label: t('verifier.col.status') },
        { label: t('verifier.col.pass') },
      ],
      rows,
    });
    host.append(
      h('h3', { text: t('verifier.casesTitle') }),
      casesTable,
      h(
        'p',
        { class: failed ? 'summary summary-bad' : 'summary summary-ok', dataset: { testid: 'verifier-summary' } },
        failed ? `✗ ${t('verifier.someFail', { failed, n: CASES.length })}` : `✓ ${t('verifier.allPass', { n: CASES.length })}`,
      ),
    );

    // The free box.
    const text = field({ key: 'v.text', label: t('verifier.text'), kind: 'textarea', value: ctx.get('v.text') });
    const reference = field({ key: 'v.ref', label: t('verifier.reference'), kind: 'text', value: ctx.get('v.ref') });
    const presets = h('div', { class: 'presets', role: 'group', 'aria-label': t('verifier.presets') });
    const result = h('dl', { class: 'result-list' });
    const outputs = h('div', { class: 'outputs verdict-box', 'aria-live': 'polite' }, h('h4', { text: t('verifier.result') }), result);
    host.append(
      h('h3', { text: t('verifier.tryTitle') }),
      h('div', { class: 'controls controls-verifier' }, text.el, reference.el),
      h('p', { class: 'presets-label', text: t('verifier.presets') }),
      presets,
      outputs,
    );

    const ruleNode = (rule) => {
      if (!rule) return t('verifier.none');
      const key = `verifier.ruleName.${rule}`;
      if (!has(key)) return h('code', { text: rule });
      return h('span', {}, `${t(key)} `, h('code', { text: rule }));
    };
    const item = (label, value, testid) => [h('dt', { text: label }), h('dd', { dataset: { testid } }, value)];
    const render = (check) => {
      const verdict = h('span', { class: check.accuracy ? 'mark-pass' : 'mark-fail' }, check.accuracy ? '✓ 1' : '✗ 0');
      result.replaceChildren(
        ...item(t('verifier.verdict'), verdict, 'verdict'),
        ...item(t('verifier.status'), statusText(check.status), 'status'),
        ...item(t('verifier.candidate'), check.candidate ? h('code', { text: check.candidate }) : t('verifier.none'), 'candidate'),
        ...item(t('verifier.value'), check.value === null || check.value === undefined ? t('verifier.none') : fmtValue(check.value), 'value'),
        ...item(t('verifier.rule'), ruleNode(check.rule), 'rule'),
        ...item(t('verifier.reason'), reasonNode(t, check), 'reason'),
      );
    };
    const form = bindForm({
      fields: [text, reference],
      params: PARAMS,
      compute: (draft) => core.checkNumericAnswer(draft['v.text'], draft['v.ref']),
      render,
      commit: (draft) => ctx.commit(draft),
      outputs,
      staleText: t('common.stale'),
    });
    for (const [name, [presetText, presetRef]] of Object.entries(PRESETS)) {
      const button = h('button', { type: 'button', class: 'button-chip', dataset: { preset: name }, text: t(`verifier.preset.${name}`) });
      button.addEventListener('click', () => {
        text.write(presetText);
        reference.write(presetRef);
        form.run();
      });
      presets.append(button);
    }
    form.run();
    host.append(notice(ctx, 'verifier.notice'));
    ctx.rendered();
    return {};
  },
};

function fmtValue(value) {
  if (typeof value !== 'number') return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
}
