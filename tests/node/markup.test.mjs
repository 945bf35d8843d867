// No markup from data: a parameter t() fills into a translated sentence is text when rich() lays
// the sentence out (web/js/mathtext.js layout(), web/js/i18n.js filledFrom()). The DOM-free half
// of rich(); tests/browser/hostile.test.mjs checks the page itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLanguage, setLanguage, t, filledFrom } from '../../web/js/i18n.js';
import { layout } from '../../web/js/mathtext.js';

const HOSTILE = 'a` **OFFICIAL** $\\href{https://evil.example}{x}$ \n\n$$y$$ {file} .json';

/** What rich() would draw for `text`: blocks of pieces, as it calls layout(). */
function drawn(text, options) {
  const { template, params } = filledFrom(text) ?? { template: text, params: null };
  return layout(template, params, options);
}

for (const lang of ['en', 'ru']) {
  test(`${lang}: a hostile file name stays one piece of code text`, async () => {
    setLanguage(await loadLanguage(lang));
    const params = { file: HOSTILE, profile: 'smoke', seed: 9, lossType: 'dapo', updates: 100 };
    const text = t('train.source.imported', params);
    assert.ok(text.includes(HOSTILE), 't() still returns the plain sentence, the name as it is');
    const blocks = drawn(text, { block: false });
    assert.equal(blocks.length, 1);
    const pieces = blocks[0].pieces;
    assert.ok(!pieces.some((piece) => piece.kind === 'tex'), 'no formula from the name');
    assert.ok(!pieces.some((piece) => piece.kind === 'strong' && piece.value.includes('OFFICIAL')), 'no bold from the name');
    const name = pieces.filter((piece) => piece.value.includes('OFFICIAL'));
    assert.deepEqual(name.map((piece) => [piece.kind, piece.value]), [['code', HOSTILE]]);
    // The dictionary's own markup is still markup: the profile goes into its code span.
    assert.ok(pieces.some((piece) => piece.kind === 'code' && piece.value === 'smoke'));
    // As block text too: the blank line in the name makes no paragraph, its $$ no formula.
    const block = drawn(t('train.source.imported', params));
    assert.equal(block.length, 1);
    assert.equal(block[0].kind, 'p');
    assert.ok(!block[0].pieces.some((piece) => piece.kind === 'tex'));
  });
}

test('a parameter in a plain sentence is text, and a placeholder of a TeX group stays TeX', async () => {
  setLanguage(await loadLanguage('en'));
  const text = t('train.import.done', { name: '**bold** `code` $x$' });
  const [{ pieces }] = drawn(text, { block: false });
  assert.deepEqual(pieces.map((piece) => piece.kind), ['text']);
  assert.equal(pieces[0].value, text);
  // groups.formula writes p^{G} in TeX: a param named G must not rewrite the formula.
  const formula = t('groups.formula', { G: '}\\href{x}{' });
  const tex = drawn(formula).flatMap((b) => b.pieces).filter((piece) => piece.kind === 'tex');
  assert.ok(tex.length > 0);
  assert.ok(tex.every((piece) => !piece.value.includes('href')));
  // Keys of Object.prototype are no parameters, and no dictionary keys.
  assert.equal(t('url.unknown', Object.create({ key: 'inherited' })), '{key}: unknown setting, ignored.');
  assert.equal(t('__proto__'), '__proto__');
  assert.equal(t('constructor'), 'constructor');
});

test('text not filled by t() is the dictionary markup as before', () => {
  const blocks = drawn('One **two** `three` $x$.\n\n$$y = 1$$');
  assert.deepEqual(blocks.map((b) => b.kind), ['p', 'display']);
  assert.deepEqual(blocks[0].pieces.map((piece) => piece.kind), ['text', 'strong', 'text', 'code', 'text', 'tex', 'text']);
});
