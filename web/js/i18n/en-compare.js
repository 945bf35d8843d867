// English strings of the compare panel's drawing (training/compare-panel.js) and of the picks'
// legends over sections 7 and 8; merged into en.js.
export default {
  'compare.empty.pick':
    'Nothing picked yet. Tick up to four runs in the list above: each is drawn here in its own colour, and over every chart of sections 7 and 8 beside the run on display. Or press “Run across seeds”.',
  'compare.empty.noRuns':
    'No run to compare yet. Every run that finishes is kept in the list above: press Run in section 6 (or in the bar at the bottom of the screen), import a run file, or press “Run across seeds”.',
  'compare.legend.onDisplay': 'on display: {name}',
  'train.passAtK.legendBefore': 'on display, before RL',
  'train.passAtK.legendAfter': 'on display, after RL',
  'train.passAtK.legendPick': '{name}, after RL',
};
