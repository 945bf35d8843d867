// The verifier's reason as code + params over the real WASM build: every code has an EN and a RU
// text, the EN text filled in is the core's English reason, the dataset notations of
// docs/verifier.md section 6 and the thousands groups of section 3 reach the page's API, and the
// page's rules text lists exactly the forms the core accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import { PRESETS, CASES } from '../../web/js/sections/verifier.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';

const core = await loadCore();

// One input per reason code (docs/verifier.md section 9).
const BY_CODE = {
  unclosed_box: ['\\boxed{5', '5'],
  empty_box: ['\\fbox{}', '5'],
  box_not_number: ['\\boxed{x+1}', '5'],
  no_number: ['no answer', '5'],
  box_zero_denominator: ['\\boxed{1/0}', '0'],
  text_zero_denominator: ['1 / 0', '0'],
  box_non_finite: ['\\boxed{1e400}', '1'],
  text_non_finite: ['5 then 1e400', '5'],
  box_equal: ['\\boxed{3/7}', '0.428571'],
  box_differs: ['\\boxed{3}', '4'],
  text_equal: ['it is 41', '41'],
  text_differs: ['it is 41', '42'],
};

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? params[name] : whole));

test('every verifier reason code has an EN and a RU text that use exactly its parameters', () => {
  for (const [code, [text, reference]] of Object.entries(BY_CODE)) {
    const check = core.checkNumericAnswer(text, reference);
    assert.equal(check.reasonCode, code, text);
    for (const [lang, dict] of [['en', en], ['ru', ru]]) {
      const template = dict[`verifier.reason.${code}`];
      assert.equal(typeof template, 'string', `${lang} verifier.reason.${code}`);
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(names, Object.keys(check.reasonParams).sort(), `${lang} ${code}`);
    }
  }
  const codes = Object.keys(en).filter((key) => key.startsWith('verifier.reason.'));
  assert.deepEqual(codes.map((key) => key.slice('verifier.reason.'.length)).sort(), Object.keys(BY_CODE).sort());
});

test('the EN dictionary, filled with the params, is the core English reason, for every preset and case', () => {
  const inputs = [...Object.values(BY_CODE), ...Object.values(PRESETS), ...CASES.map(([t, r]) => [t, r])];
  for (const [text, reference] of inputs) {
    const check = core.checkNumericAnswer(text, reference);
    assert.equal(fill(en[`verifier.reason.${check.reasonCode}`], check.reasonParams), check.reason, text);
    for (const [, name] of ru[`verifier.reason.${check.reasonCode}`].matchAll(/\{(\w+)\}/g)) {
      assert.ok(name in check.reasonParams, `${text}: RU placeholder {${name}}`);
    }
  }
});

test('a long box content is clipped in the params, never inside a UTF-8 character', () => {
  const content = `${'a'.repeat(59)}ééé`;
  const check = core.checkNumericAnswer(`\\boxed{${content}}`, '1');
  assert.equal(check.reasonCode, 'box_not_number');
  assert.equal(check.reasonParams.content, `${'a'.repeat(59)}... (65 bytes)`);
  assert.equal(check.candidate, content);
});

test('what real datasets write: references and answers in LaTeX, units, symbols, emphasis', () => {
  const rows = [
    ['\\boxed{0.5}', '\\dfrac{1}{2}', 1],
    ['\\boxed{0.5}', '\\\\frac{1}{2}', 1],
    ['Final: \\\\boxed{\\\\frac{3}{7}}', '3 / 7', 1],
    ['The total is \\boxed{\\$1,250}', '1,250', 1],
    ['It weighs 5kg.', '5', 1],
    ['It weighs 5 cm', '5', 1],
    ['the angle is 30°', '30^\\circ', 1],
    ['it costs $5', '$5', 1],
    ['so 5\\%', '5', 1],
    ['The answer is **73**.', '73', 1],
    ['\\boxed{\\text{13}}', '13', 1],
    ['5²', '5', 0],
    ['H2O', '2', 0],
  ];
  for (const [text, reference, expected] of rows) {
    assert.equal(core.verifyNumericAnswer(text, reference), expected, `${text} vs ${reference}`);
  }
  assert.throws(() => core.checkNumericAnswer('5', '12 apples and pears'), (e) => e instanceof RangeError && /^reference: must be one number/.test(e.message));
});

test('thousands groups in running text are one number; a comma that starts no group separates', () => {
  const rows = [
    // text, reference, candidate, value
    ['The answer is 1,000.', '1000', '1,000', 1000],
    ['It costs $1,250', '1250', '1,250', 1250],
    ['12,345,678', '12345678', '12,345,678', 12345678],
    ['so -1,000', '-1000', '-1,000', -1000],
    ['1,000.5', '1000.5', '1,000.5', 1000.5],
    ['x = 3, 4', '4', '4', 4],
    ['1,2,3', '3', '3', 3],
    ['1,0000', '0', '0000', 0],
    ['1234,567', '567', '567', 567],
  ];
  for (const [text, reference, candidate, value] of rows) {
    const check = core.checkNumericAnswer(text, reference);
    assert.deepEqual([check.rule, check.candidate, check.value, check.accuracy], ['last_number', candidate, value, 1], text);
  }
  assert.equal(core.verifyNumericAnswer('1,0000', '10000'), 0, '1,0000 is not 10000');
  assert.equal(core.verifyNumericAnswer('The total is 8,000', '8,000'), 1);
});

// The page's rules (verifier.body): every code span is a syntax marker or an example whose value
// the core reads, in the running text and (when it is one answer) in a box; RU lists the same.
const RULE_SYNTAX = ['\\boxed{...}', '\\\\boxed{...}', '\\fbox{...}', '\\frac{a}{b}', '\\dfrac{a}{b}'];
const RULE_EXAMPLES = {
  42: 42,
  '-7': -7,
  0.25: 0.25,
  '.5': 0.5,
  '1e3': 1000,
  '1E-2': 0.01,
  '1,000': 1000,
  '12,345,678': 12345678,
  '1,000.5': 1000.5,
  '3, 4': 4,
  '1,2,3': 3,
  '3/7': 3 / 7,
  '3 / 7': 3 / 7,
  '$1,250': 1250,
  '€5': 5,
  '50%': 50,
  '50\\%': 50,
  '5kg': 5,
  '5 cm': 5,
  '30°': 30,
  '30^\\circ': 30,
  '**73**': 73,
  '\\text{13}': 13,
};
const LISTS = new Set(['3, 4', '1,2,3']);
const codeSpans = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

test('the rules text lists exactly the accepted forms, each read as it says, in EN and RU', () => {
  const spans = codeSpans(en['verifier.body']);
  assert.deepEqual([...spans].sort(), [...RULE_SYNTAX, ...Object.keys(RULE_EXAMPLES)].sort());
  assert.deepEqual(codeSpans(ru['verifier.body']), spans, 'RU lists the same forms in the same order');
  for (const [example, value] of Object.entries(RULE_EXAMPLES)) {
    const text = core.checkNumericAnswer(`so ${example}`, String(value));
    assert.deepEqual([text.rule, text.accuracy], ['last_number', 1], `so ${example}`);
    const boxed = core.checkNumericAnswer(`\\boxed{${example}}`, String(value));
    assert.deepEqual([boxed.rule, boxed.accuracy], LISTS.has(example) ? ['box_not_number', 0] : ['last_box', 1], `\\boxed{${example}}`);
  }
});
