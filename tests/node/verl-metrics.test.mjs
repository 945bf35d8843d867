// Section 7's table of verl's metric names (web/js/training/metric-names.js): every metric a run
// with engine verl logs under verl's name is in it, every row names a history column and a TRL
// metric the history knows, and each has its difference in EN and RU. The values behind the
// names (actor/pg_loss summed over the update's steps, as verl's dp_actor logs it) are checked in
// tests/cpp/test_trainer_verl.cpp; here, that a run's actor/* keys are what the table lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/core/index.js';
import en from '../../web/js/i18n/en.js';
import ru from '../../web/js/i18n/ru.js';
import { HISTORY_COLUMNS } from '../../web/js/training/run-format.js';
import { CONFIG_FIELDS } from '../../web/js/training/run-config.js';
import { VERL_METRICS, verlMetricRows } from '../../web/js/training/metric-names.js';

const core = await loadCore();
const SHORT = { profile: 'smoke', seed: 9, updates: 2, warmupSteps: 30, trainPrompts: 16, heldoutPrompts: 4, promptBatch: 4, finalEvalSamples: 4, evalSamples: 1 };

test('each row is a history column under verl’s name, beside a TRL metric the history knows', () => {
  const keys = new Set(HISTORY_COLUMNS.map((c) => c.key));
  const trlNames = new Set(HISTORY_COLUMNS.map((c) => c.trl).filter(Boolean));
  for (const row of VERL_METRICS) assert.ok(keys.has(row.key), `${row.key} is a history column`);
  const rows = verlMetricRows();
  assert.equal(new Set(rows.map((r) => r.verl)).size, rows.length, 'one row per verl metric');
  for (const row of rows) {
    assert.match(row.verl, /^(actor|critic|response_length)\//, row.verl);
    if (row.trl !== null) assert.ok(trlNames.has(row.trl), `${row.verl}: ${row.trl} is a TRL metric of the history`);
  }
  // The three the learner trips over: the dual clip is not TRL's low clip, ppo_kl is not
  // TRL's kl, and pg_loss is not TRL's loss.
  const byName = Object.fromEntries(rows.map((r) => [r.verl, r]));
  assert.equal(byName['actor/pg_clipfrac_lower'].trl, null);
  assert.equal(byName['actor/ppo_kl'].trl, null);
  assert.equal(byName['actor/pg_loss'].trl, 'loss');
  assert.equal(byName['actor/pg_clipfrac'].trl, 'clip_ratio/region_mean');
  assert.equal(byName['response_length/clip_ratio'].column, 'truncated_fraction');
});

test('every verl metric a run logs is in the table, for every loss mode, with and without the KL loss', () => {
  const listed = new Set(verlMetricRows().map((r) => r.verl));
  const logged = new Set();
  for (const verlLossMode of CONFIG_FIELDS.find((f) => f.core === 'verlLossMode').options) {
    for (const beta of [0, 0.01]) {
      const run = core.runToyGrpoExperiment({ ...SHORT, engine: 'verl', verlLossMode, beta, clipCovRatio: 0.05, clipCovLb: 0, klCovRatio: 0.05 });
      for (const key of Object.keys(run.history[0])) if (key.startsWith('actor/')) logged.add(key);
      // verl's dp_actor starts actor/kl_loss at 0: logged without the KL loss too.
      assert.equal(run.history[0]['actor/kl_loss'] === 0, beta === 0, `${verlLossMode} beta ${beta}: actor/kl_loss`);
    }
  }
  assert.deepEqual([...logged].filter((name) => !listed.has(name)), [], 'logged but not in the table');
  assert.deepEqual([...logged].sort(), ['actor/kl_loss', 'actor/pg_clipfrac', 'actor/pg_clipfrac_lower', 'actor/pg_loss', 'actor/ppo_kl']);
});

test('each row’s difference is written in EN and RU; the section’s strings too', () => {
  for (const dict of [en, ru]) {
    for (const key of ['title', 'note', 'verl', 'ours', 'trl', 'diff']) assert.ok(dict[`train.verlNames.${key}`], `train.verlNames.${key}`);
    for (const row of verlMetricRows()) assert.ok(dict[`train.verlNames.diff.${row.verl}`], `train.verlNames.diff.${row.verl}`);
  }
  assert.match(en['train.verlNames.diff.actor/pg_loss'], /summed/);
  assert.match(ru['train.verlNames.diff.actor/pg_loss'], /сложенный/);
  assert.match(en['train.verlNames.diff.actor/pg_clipfrac_lower'], /clip_ratio\/low_mean/);
});
