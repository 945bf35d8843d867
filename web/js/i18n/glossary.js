// The glossary: one word per concept in each language's page text, and the synonyms it rejects.
// Not loaded by the page: tests/node/glossary.test.mjs reads every en*.js / ru*.js dictionary
// and fails on a rejected synonym (naming the key and the word), and on a chosen term that no
// string uses. A pattern is a regular-expression source matched as a whole word, case-insensitive
// (Russian inflections by stem: 'лосс\p{L}*' is лосс, лосса, лоссы, ...); {pattern, cased: true}
// matches case-sensitively. Code (`...`), formulas ($...$) and {placeholders} are not text.

export const GLOSSARY = [
  {
    id: 'loss',
    en: { term: 'loss', pattern: 'loss(?:es)?', rejected: ['loss functions?', 'cost functions?'] },
    ru: {
      term: 'лосс',
      pattern: 'лосс\\p{L}*',
      // потеря as a noun (потери, потерю, потерь...), not потерянный / потерял (a lost prompt)
      rejected: ['(?<!функци\\p{L}* )потер(?:я|и|ю|е|ей|ь|ям|ями|ях)', 'функци\\p{L}* потерь'],
    },
    why: 'лосс is what TRL readers call loss_type and its variants, and it declines (лосса, лоссы); функция потерь is too long for «потокенный лосс», потеря reads as "losing"',
  },
  {
    id: 'clip',
    en: { term: 'clip', pattern: 'clip(?:s|ped|ping)?', rejected: ['clamp\\w* the ratios?'] }, // clamp stays verl's KL bounds (±10)
    ru: {
      term: 'клиппинг',
      pattern: 'клиппинг\\p{L}*',
      rejected: ['отсе[кч]\\p{L}*', 'неотсеч\\p{L}*', 'клип(?:а|у|ом|е|ы|ов)?', '(?:не)?клипован\\p{L}*', '(?:не)?срезан\\p{L}*', 'зажим\\p{L}* отношени\\p{L}*', '(?:не)?обрезанн\\p{L}* ветв\\p{L}*'],
    },
    why: 'клиппинг is the Russian ML word for PPO clipping and gradient clipping, and the dictionaries used it most (48 against 34 отсечение); отсечение/обрезка are left to truncation',
  },
  {
    id: 'seed',
    en: { term: 'seed', pattern: 'seeds?', rejected: ['random states?'] },
    ru: {
      term: 'сид',
      pattern: 'сид(?:а|у|ом|е|ы|ов|ам|ами|ах)?',
      // the Latin word in prose; (seed) after a label and SEED (the notebook constant) are names
      rejected: ['зерн\\p{L}*', { pattern: '(?<!\\()seeds?(?!\\))', cased: true }],
    },
    why: 'сид is the word Russian practitioners say (set_seed -> сид), it was used 88 times; зерно is a dictionary calque nobody reads in ML code',
  },
  {
    id: 'reduction',
    en: { term: 'reduction', pattern: 'reductions?', rejected: ['loss aggregations?'] },
    ru: {
      term: 'редукция',
      pattern: 'редукци\\p{L}*',
      rejected: ['сведени\\p{L}*', 'свед[её]нн\\p{L}*', 'агрегаци\\p{L}* (?:лосс|потерь)\\p{L}*'],
    },
    why: 'section 4 is «разные редукции» (the reduction column, its captions): сведение said the same twice in section 6',
  },
  {
    id: 'sampling',
    en: { term: 'sample', pattern: 'sampl(?:e|es|ed|ing|er|ers)', rejected: [] },
    ru: { term: 'сэмплировать', pattern: 'сэмпл\\p{L}*', rejected: ['семпл\\p{L}*'] },
    why: 'сэмплер, сэмплирование (28 against 7 семпл-): one spelling of the loan word',
  },
  {
    id: 'reference',
    en: { term: 'reference policy', pattern: 'reference (?:policy|model)', rejected: [] },
    ru: {
      term: 'референсная политика',
      pattern: 'референс\\p{L}*',
      // эталон stays the verifier's reference answer; the KL anchor is the reference model
      rejected: ['эталонн\\p{L}* (?:политик|модел)\\p{L}*'],
    },
    why: 'the KL anchor is «референсная модель/политика» (TRL ref_model, sync_ref_model); эталон is the verifier\'s reference answer, a different thing',
  },
  {
    id: 'rollout',
    en: { term: 'rollout engine', pattern: 'rollout engine', rejected: ['inference engines?'] },
    ru: { term: 'движок генерации', pattern: 'движ\\p{L}* генерации', rejected: ['роллаут\\p{L}*', 'движ\\p{L}* вывода'] },
    why: 'verl\'s rollout engine (vLLM, SGLang) generates the answers: «движок генерации», as sections 6 and 9 say; «роллаут» is not used',
  },
  {
    id: 'truncated',
    en: { term: 'truncated', pattern: 'truncat(?:ed|ion|es|e)', rejected: [] },
    ru: { term: 'обрезанный', pattern: 'обрез\\p{L}*', rejected: ['усеч\\p{L}*', 'отрезан\\p{L}*'] },
    why: 'a response cut by the length limit is обрезанный everywhere (verifier status, maskTruncated); клиппинг is the ratio\'s',
  },
  {
    id: 'train',
    en: { term: 'train', pattern: 'train', rejected: [] },
    ru: {
      term: 'train',
      pattern: 'train(?:-промпт\\p{L}*)?',
      rejected: ['обучающ\\p{L}* (?:промпт|задач)\\p{L}*', 'обучение, (?:до|после)'],
    },
    why: 'the split is named as in the notebook\'s charts (BEFORE_TRAIN «до RL, train») and its tables: train-промпт, not обучающий промпт in one place and train in the next',
  },
  {
    id: 'heldout',
    en: { term: 'held-out', pattern: 'held-out', rejected: ['heldout', 'test prompts?'] },
    ru: {
      term: 'held-out',
      pattern: 'held-out(?:-промпт\\p{L}*)?',
      // отложенные записи (library.quarantined) are records set aside, another thing
      rejected: ['отложенн\\p{L}* (?:промпт|задач|\\(held-out\\))\\p{L}*', 'отложенные, (?:до|после)'],
    },
    why: 'as train: the notebook\'s label (BEFORE_HELDOUT «до RL, held-out»), 34 uses against 8 отложенные',
  },
  {
    id: 'advantage',
    en: { term: 'advantage', pattern: 'advantages?', rejected: [] },
    ru: { term: 'преимущество', pattern: 'преимуществ\\p{L}*', rejected: ['выгод\\p{L}*'] },
    why: 'the standard Russian RL term for A (преимущество), used throughout',
  },
  {
    id: 'policy',
    en: { term: 'policy', pattern: 'polic(?:y|ies)', rejected: [] },
    ru: { term: 'политика', pattern: 'политик\\p{L}*', rejected: ['стратеги\\p{L}*'] },
    why: 'политика is the RL term (π); стратегия is game theory\'s',
  },
  {
    id: 'reward',
    en: { term: 'reward', pattern: 'rewards?', rejected: [] },
    ru: { term: 'награда', pattern: 'наград\\p{L}*', rejected: ['вознагражд\\p{L}*'] },
    why: 'награда is short and the dictionaries use nothing else (verifiable rewards = проверяемые награды)',
  },
  {
    id: 'entropy',
    en: { term: 'entropy', pattern: 'entropy', rejected: [] },
    ru: { term: 'энтропия', pattern: 'энтропи\\p{L}*', rejected: [] },
    why: 'one word in both languages',
  },
  {
    id: 'ratio',
    en: { term: 'ratio', pattern: 'ratios?', rejected: [] },
    ru: { term: 'отношение', pattern: 'отношени\\p{L}*', rejected: ['соотношени\\p{L}*', 'коэффициент\\p{L}* важности'] },
    why: 'ρ is «отношение (вероятностей)»; коэффициент stays for β and the entropy coefficient',
  },
  {
    id: 'prompt',
    en: { term: 'prompt', pattern: 'prompts?', rejected: [] },
    ru: { term: 'промпт', pattern: 'промпт\\p{L}*', rejected: ['промт\\p{L}*', 'затравк\\p{L}*'] },
    why: 'промпт is the loan word Russian LLM readers use; задача stays the task (arithmetic, scratch)',
  },
  {
    id: 'completion',
    en: { term: 'response', pattern: 'responses?', rejected: [] },
    ru: { term: 'ответ', pattern: 'ответ\\p{L}*', rejected: ['завершени\\p{L}*', 'продолжени\\p{L}*'] },
    why: 'a sampled completion is «ответ» (the plural table has ответ|ответа|ответов); завершение is a literal calque of completion',
  },
  {
    id: 'update',
    en: { term: 'update', pattern: 'updates?', rejected: [] },
    ru: { term: 'обновление', pattern: 'обновлени\\p{L}*', rejected: ['итераци\\p{L}*'] },
    why: 'one update is one sampled batch and its optimizer steps (шаг stays the Adam step)',
  },
  {
    id: 'batch',
    en: { term: 'batch', pattern: 'batch(?:es)?', rejected: ['minibatch\\w*'] },
    ru: { term: 'батч', pattern: 'батч\\p{L}*', rejected: ['парти(?:я|и|ю|ей)', 'пачк\\p{L}*', 'минибатч\\p{L}*'] },
    why: 'батч (мини-батч, микробатч) as in PyTorch talk; пакет stays the software or SCORM package',
  },
  {
    id: 'group',
    en: { term: 'group', pattern: 'groups?', rejected: [] },
    ru: { term: 'группа', pattern: 'групп\\p{L}*', rejected: [] },
    why: 'G answers to one prompt: the G of GRPO',
  },
  {
    id: 'token',
    en: { term: 'token', pattern: 'tokens?', rejected: [] },
    ru: { term: 'токен', pattern: 'токен\\p{L}*', rejected: ['лексем\\p{L}*'] },
    why: 'токен, as in every tokenizer\'s documentation',
  },
  {
    id: 'mask',
    en: { term: 'mask', pattern: 'mask(?:s|ed|ing)?', rejected: [] },
    ru: { term: 'маска', pattern: 'маск\\p{L}*', rejected: [] },
    why: 'маска, маскировать: one root for masking tokens and truncated answers',
  },
];
