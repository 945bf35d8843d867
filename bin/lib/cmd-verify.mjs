// `grpo-lab verify TEXT REFERENCE`: the section-1 verifier on one answer; the exit code is the
// verdict (0 correct, 1 not correct, 2 bad input).
import { LANGUAGES, has, loadLanguage, setLanguage, t } from '../../web/js/i18n.js';

export default {
  name: 'verify',
  summary: 'check one answer with the numeric verifier (exit 0 correct, 1 not, 2 bad input)',
  usage: 'grpo-lab verify [--lang en|ru] [--json] [--] TEXT REFERENCE',
  help: `Runs the notebook's verifier (section 1) on TEXT against the number REFERENCE and prints
the verdict, the status, the extracted candidate and the core's reason. Exit code 0 when the
answer is correct, 1 when it is not (incorrect, no answer, invalid), 2 on bad input (e.g. a
REFERENCE that is not a number). Put -- before a TEXT that starts with "-".

  --lang en|ru  labels from the page's dictionaries (default en)
  --json        print the core's whole result as JSON instead`,
  spec: {
    flags: {
      lang: { kind: 'enum', options: LANGUAGES, default: 'en' },
      json: { kind: 'bool' },
    },
    positionals: ['text', 'reference'],
  },
  async run({ flags, positionals: [text, reference] }, { core, stdout }) {
    const check = core.checkNumericAnswer(text, reference);
    if (flags.json) {
      stdout.write(`${JSON.stringify(check, null, 2)}\n`);
    } else {
      setLanguage(await loadLanguage(flags.lang));
      const statusKey = `verifier.status.${check.status}`;
      const status = has(statusKey) && t(statusKey) !== check.status ? `${t(statusKey)} (${check.status})` : check.status;
      const lines = [
        [t('verifier.verdict'), String(check.accuracy)],
        [t('verifier.status'), status],
        [t('verifier.candidate'), check.candidate || t('verifier.none')],
        [t('verifier.reason'), check.reason ?? ''],
      ];
      const width = Math.max(...lines.map(([label]) => label.length));
      stdout.write(lines.map(([label, value]) => `${`${label}:`.padEnd(width + 1)} ${value}`).join('\n') + '\n');
    }
    return check.accuracy === 1 ? 0 : 1;
  },
};
