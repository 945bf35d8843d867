// English strings of section 6's config form (training/config-form.js); merged into en.js.
export default {
  'train.group.notebook': 'The notebook’s settings: PROFILE, SEED and its GRPOConfig',
  'train.moreSettings': 'Every other setting (folded by group)',
  'train.groupCount.none': 'all {total} at the default',
  'train.groupCount.changed': '{changed} of {total} changed',
  'train.loopTitle': 'What the loop does',
};
