// Section 0, reproducible setup: profile, seed and language; what runs where.
import { h, field, bindForm, dataTable } from '../dom.js';
import { LANGUAGES, formatNumber } from '../i18n.js';
import { notice } from './common.js';
import { SEED_FIELD, SETUP_SCHEMA, validateConfig } from '../training/run-config.js';
import { offlineStatus, onOfflineChange } from '../offline.js';
import { errorText } from '../core-errors.js';


// Profile and seed, their options, range and defaults from the core's config table.
export const schema = SETUP_SCHEMA;

// The core checks the seed (and names its range); before the core is in, the URL schema's range.
const checkSetup = (core, values) => core?.experimentConfig({ profile: values.profile, seed: values.seed });


function coreVersion(core) {
  try {
    if (!core.methods().includes('version')) return '?';
    const info = core.call('version', {});
    return typeof info === 'string' ? info : info?.core ?? '?';
  } catch {
    return '?';
  }
}

/** The "Works offline" cell: what js/offline.js knows of this page, nothing more. */
function offlineText(t, lang, status) {
  if (status.state !== 'active') return t(`setup.where.offline.${status.state}`, { message: status.message ?? '' });
  const size = status.bytes === null ? '…' : formatNumber(status.bytes / 1e6, { maximumFractionDigits: 1 }, lang);
  const active = t('setup.where.offline.active', { files: status.files, size });
  return status.refused ? `${active}; ${t('setup.where.offline.refused')}` : active;
}

// The training run's modules, loaded on the first Run pressed here (never at startup).
let trainingModules = null;
const loadTraining = () =>
  (trainingModules ??= Promise.all([import('../training/controller.js'), import('../training/run-dock.js'), import('../../core/index.js')]).catch((error) => {
    trainingModules = null;
    throw error;
  }));

/**
 * Run from the first screen (issue 24): section 6's config (the link's, with this profile and
 * seed) trains in the worker at once, and the run bar docks at the bottom of the screen while the
 * run is live, wherever the reader scrolls. Returns {el, destroy()}.
 */
function startFromSetup(ctx) {
  const { t } = ctx;
  const button = h('button', { type: 'button', class: 'button-run button-primary', dataset: { action: 'run-setup' }, text: t('setup.run') });
  const refused = h('p', { class: 'field-error', role: 'alert', hidden: true });
  let dock = null;
  let gone = false;
  // The controller, the dock and the full core (the one sections 6-9 validate with).
  const attach = async () => {
    const [training, docking, coreModule] = await loadTraining();
    const core = await coreModule.loadCore();
    if (gone) return null;
    const getConfig = () => validateConfig(core, ctx.values());
    dock ??= docking.dockRunBar(ctx, button.closest('section'), getConfig, { whileLive: true });
    return { training, getConfig };
  };
  button.addEventListener('click', async () => {
    refused.hidden = true;
    try {
      const run = await attach();
      if (!run || run.training.isBusy()) return;
      run.training.start(run.getConfig(), { autorun: true });
    } catch (error) {
      refused.hidden = false;
      refused.textContent = t('train.refused', { message: errorText(error) });
    }
  });
  // Back after a language switch with the run still live: the dock comes back with this section.
  trainingModules?.then(([training]) => training.isLive() && attach()).catch(() => {});
  const el = h('div', { class: 'setup-run' }, button, h('p', { class: 'muted', text: t('setup.runNote') }), refused);
  return {
    el,
    destroy() {
      gone = true;
      dock?.destroy();
    },
  };
}

function pythonRepr(values) {
  return `{'profile': '${values.profile}', 'seed': ${values.seed}, 'real_model': False}`;
}

export default {
  id: 'setup',
  number: 0,
  titleKey: 'setup.title',
  bodyKey: 'setup.body',
  schema,
  needsCore: false,
  validate: checkSetup,
  mount(host, ctx) {
    const { t } = ctx;

    const profile = field({
      key: 'profile',
      label: t('setup.profile'),
      kind: 'select',
      options: schema.profile.options.map((value) => ({ value, label: t(`setup.profile.${value}`) })),
      value: ctx.get('profile'),
    });
    const seed = field({ key: 'seed', label: t('setup.seed'), hint: t('setup.seedHint'), step: 1, min: SEED_FIELD.min, max: SEED_FIELD.max, value: ctx.get('seed') });
    const language = field({
      key: 'lang',
      label: t('setup.language'),
      kind: 'select',
      options: LANGUAGES.map((value) => ({ value, label: t(`lang.${value}`) })),
      value: ctx.get('lang'),
    });
    language.input.addEventListener('change', () => ctx.setLanguage(language.input.value));
    host.append(h('div', { class: 'controls' }, profile.el, seed.el, language.el));
    // Embedded alone, section 0 has no run to show: the Run is the course page's.
    const start = ctx.embedded ? null : startFromSetup(ctx);
    if (start) host.append(start.el);

    const printed = h('pre', { class: 'printed' }, h('code'));
    const where = h('div');
    const outputs = h('div', { class: 'outputs' }, h('h3', { text: t('setup.whereTitle') }), where, h('p', { text: t('setup.printed') }), printed);
    host.append(outputs);

    const { core, coreInfo } = ctx;
    const row = (label, value) => [{ text: label, header: true }, { node: ctx.rich(value, { block: false }) }];
    let shown = null;
    const render = (values) => {
      shown = values;
      const rows = [
        row(t('setup.where.core'), core ? t('setup.where.coreValue', { version: coreVersion(core), methods: coreInfo.methods, ms: coreInfo.ms }) : '—'),
        row(t('setup.where.device'), t('setup.where.deviceValue')),
        row(t('setup.where.server'), t('setup.where.serverValue')),
        row(t('setup.where.offline'), offlineText(t, ctx.lang, offlineStatus())),
        row(t('setup.where.profile'), `\`PROFILE = "${values.profile}"\`, \`SEED = ${values.seed}\``),
        row(t('setup.where.realModel'), t('setup.where.realModelValue')),
      ];
      const table = dataTable({ caption: t('setup.whereTitle'), columns: [{ label: '' }, { label: '' }], rows });
      table.querySelector('thead')?.remove();
      table.querySelector('caption')?.classList.add('visually-hidden');
      where.replaceChildren(table, h('p', { class: 'muted', text: t('REAL_MODEL_SKIPPED') }));
      printed.firstChild.textContent = pythonRepr(values);
    };

    const form = bindForm({
      fields: [profile, seed],
      compute: (draft) => {
        checkSetup(ctx.core, draft);
        return draft;
      },
      render,
      commit: (draft) => ctx.commit({ profile: draft.profile, seed: draft.seed }),
      outputs,
      staleText: t('common.stale'),
    });
    form.run();
    // Section 6 holds the same profile and seed: when it changes them in the store, show them here.
    ctx.subscribe(['profile', 'seed'], (_keys, source) => {
      if (source === 'setup') return;
      profile.write(ctx.get('profile'));
      seed.write(ctx.get('seed'));
      form.run();
    });
    host.append(notice(ctx, 'setup.notice'));
    const unsubscribe = onOfflineChange(() => shown && render(shown));
    ctx.rendered();
    return {
      destroy() {
        unsubscribe();
        start?.destroy();
      },
    };
  },
};
