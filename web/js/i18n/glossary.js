// The glossary: one word per concept in each language's page text, and the synonyms it rejects.
// Not loaded by the page: tests/node/glossary.test.mjs reads every en*.js / ru*.js dictionary
// and fails on a rejected synonym (naming the key and the word), and on a chosen term that no
// string uses. A pattern is a regular-expression source matched as a whole word, case-insensitive
// (Russian inflections by stem: 'лосс\p{L}*' is лосс, лосса, лоссы, ...); {pattern, cased: true}
// matches case-sensitively. Code (`...`), formulas ($...$) and {placeholders} are not text.

/** One language's side of a term: the chosen word, its pattern, the rejected patterns. */
function side(term, pattern, ...rejected) {
  return { term, pattern, rejected };
}

export const GLOSSARY = [
  {
    id: 'loss',
    en: side('loss', 'loss(?:es)?', 'loss functions?', 'cost functions?'),
    // потеря as a noun (потери, потерю, потерь...), not потерянный / потерял (a lost prompt)
    ru: side('лосс', 'лосс\\p{L}*', '(?<!функци\\p{L}* )потер(?:я|и|ю|е|ей|ь|ям|ями|ях)', 'функци\\p{L}* потерь'),
    why: 'лосс is what TRL readers call loss_type and its variants, and it declines (лосса, лоссы); функция потерь is too long for «потокенный лосс», потеря reads as "losing"',
  },
  {
    id: 'clip',
    en: side('clip', 'clip(?:s|ped|ping)?', 'clamp\\w* the ratios?'), // clamp stays verl's KL bounds (±10)
    // обрезанный stays the length cut (truncated): «ветвь с клиппингом», not «обрезанная ветвь»
    ru: side(
      'клиппинг',
      'клиппинг\\p{L}*',
      'отсе[кч]\\p{L}*',
      'неотсеч\\p{L}*',
      'клип(?:а|у|ом|е|ы|ов)?',
      '(?:не)?клипован\\p{L}*',
      '(?:не)?срезан\\p{L}*',
      'зажим\\p{L}* отношени\\p{L}*',
      '(?:не)?обрезанн\\p{L}* ветв\\p{L}*',
    ),
    why: 'клиппинг is the Russian ML word for PPO clipping and gradient clipping, and the dictionaries used it most (48 against 34 отсечение)',
  },
  {
    id: 'seed',
    en: side('seed', 'seeds?', 'random states?'),
    // the Latin word in prose; (seed) after a label and SEED (the notebook constant) are names
    ru: side('сид', 'сид(?:а|у|ом|е|ы|ов|ам|ами|ах)?', 'зерн\\p{L}*', { pattern: '(?<!\\()seeds?(?!\\))', cased: true }),
    why: 'сид is the word Russian practitioners say (set_seed -> сид), it was used 88 times; зерно is a dictionary calque nobody reads in ML code',
  },
  {
    id: 'reduction',
    en: side('reduction', 'reductions?', 'loss aggregations?'),
    ru: side('редукция', 'редукци\\p{L}*', 'сведени\\p{L}*', 'свед[её]нн\\p{L}*', 'агрегаци\\p{L}* (?:лосс|потерь)\\p{L}*'),
    why: 'section 4 is «разные редукции» (the reduction column, its captions): сведение said the same twice in section 6',
  },
  {
    id: 'sampling',
    en: side('sample', 'sampl(?:e|es|ed|ing|er|ers)'),
    ru: side('сэмплировать', 'сэмпл\\p{L}*', 'семпл\\p{L}*'),
    why: 'сэмплер, сэмплирование (28 against 7 семпл-): one spelling of the loan word',
  },
  {
    id: 'reference',
    en: side('reference policy', 'reference (?:policy|model)'),
    // эталон stays the verifier's reference answer; the KL anchor is the reference model
    ru: side('референсная политика', 'референс\\p{L}*', 'эталонн\\p{L}* (?:политик|модел)\\p{L}*'),
    why: 'the KL anchor is «референсная модель/политика» (TRL ref_model, sync_ref_model); эталон is the verifier\'s reference answer, a different thing',
  },
  {
    id: 'rollout',
    en: side('rollout engine', 'rollout engine', 'inference engines?'),
    ru: side('движок генерации', 'движ\\p{L}* генерации', 'роллаут\\p{L}*', 'движ\\p{L}* вывода'),
    why: 'verl\'s rollout engine (vLLM, SGLang) generates the answers: «движок генерации», as sections 6 and 9 say; «роллаут» is not used',
  },
  {
    id: 'truncated',
    en: side('truncated', 'truncat(?:ed|ion|es|e)'),
    ru: side('обрезанный', 'обрез\\p{L}*', 'усеч\\p{L}*', 'отрезан\\p{L}*'),
    why: 'a response cut by the length limit is обрезанный everywhere (verifier status, maskTruncated); клиппинг is the ratio\'s',
  },
  {
    id: 'train',
    en: side('train', 'train'),
    ru: side('train', 'train(?:-промпт\\p{L}*)?', 'обучающ\\p{L}* (?:промпт|задач)\\p{L}*', 'обучение, (?:до|после)'),
    why: 'the split is named as in the notebook\'s charts (BEFORE_TRAIN «до RL, train») and its tables: train-промпт, not обучающий промпт in one place and train in the next',
  },
  {
    id: 'heldout',
    en: side('held-out', 'held-out', 'heldout', 'test prompts?'),
    // отложенные записи (library.quarantined) are records set aside, another thing
    ru: side('held-out', 'held-out(?:-промпт\\p{L}*)?', 'отложенн\\p{L}* (?:промпт|задач|\\(held-out\\))\\p{L}*', 'отложенные, (?:до|после)'),
    why: 'as train: the notebook\'s label (BEFORE_HELDOUT «до RL, held-out»), 34 uses against 8 отложенные',
  },
  {
    id: 'advantage',
    en: side('advantage', 'advantages?'),
    ru: side('преимущество', 'преимуществ\\p{L}*', 'выгод\\p{L}*'),
    why: 'the standard Russian RL term for A (преимущество), used throughout',
  },
  {
    id: 'estimator',
    en: side('advantage estimator', 'advantage estimators?'),
    ru: side('оценка преимущества', 'оценк\\p{L}* преимуществ\\p{L}*', 'оценщик\\p{L}*', 'оцениват\\p{L}*'),
    why: 'section 6\'s field and the compare panel say «оценка преимущества»; оценщик (twice, in verl\'s notes) named the same option',
  },
  {
    id: 'learningRate',
    en: side('learning rate', 'learning rates?', 'step sizes?'),
    ru: side('скорость обучения', 'скорост\\p{L}* обучения', 'шаг\\p{L}* обучения', 'темп\\p{L}* обучения'),
    why: 'скорость обучения is the Russian for lr (section 6\'s learningRate, the hot-lr preset); шаг stays one Adam or exact step, so section 5 said «шаг обучения η» beside «каждый шаг»',
  },
  {
    id: 'klPenalty',
    en: side('KL penalty', 'KL penalty', 'KL-penalty'),
    ru: side('штраф KL', 'штраф\\p{L}* KL', 'KL-штраф\\p{L}*'),
    why: 'one word order, as член KL (the KL term) and the presets say',
  },
  {
    id: 'policy',
    en: side('policy', 'polic(?:y|ies)'),
    ru: side('политика', 'политик\\p{L}*', 'стратеги\\p{L}*'),
    why: 'политика is the RL term (π); стратегия is game theory\'s',
  },
  {
    id: 'reward',
    en: side('reward', 'rewards?'),
    ru: side('награда', 'наград\\p{L}*', 'вознагражд\\p{L}*'),
    why: 'награда is short and the dictionaries use nothing else (verifiable rewards = проверяемые награды)',
  },
  {
    id: 'entropy',
    en: side('entropy', 'entropy'),
    ru: side('энтропия', 'энтропи\\p{L}*'),
    why: 'one word in both languages',
  },
  {
    id: 'ratio',
    en: side('ratio', 'ratios?'),
    ru: side('отношение', 'отношени\\p{L}*', 'соотношени\\p{L}*', 'коэффициент\\p{L}* важности'),
    why: 'ρ is «отношение (вероятностей)»; коэффициент stays for β and the entropy coefficient',
  },
  {
    id: 'prompt',
    en: side('prompt', 'prompts?'),
    ru: side('промпт', 'промпт\\p{L}*', 'промт\\p{L}*', 'затравк\\p{L}*'),
    why: 'промпт is the loan word Russian LLM readers use; задача stays the task (arithmetic, scratch, rewrite)',
  },
  {
    id: 'completion',
    // What the policy generates for a prompt. `response` stays the notebook's log column; "answer"
    // is the number the verifier reads in a completion (the correct answer, the answer histogram).
    en: side(
      'completion',
      'completions?',
      // the notebook's own names stay: INFO_X's "single-response", the DataFrame's response_1
      '(?<!single-)responses?',
      '(?:fresh|new|these|the other|rewarded|of the) samples?',
      'samples? per prompt',
      'fresh answers?',
      'answers? (?:to|for) each',
    ),
    ru: side('ответ', 'ответ\\p{L}*', 'завершени\\p{L}*', 'продолжени\\p{L}*'),
    why: 'completion is TRL\'s word (completion_length, max_completion_length, mask_truncated_completions) and the core\'s (completions, its warnings); response and the noun sample said the same thing beside it. A sampled completion is «ответ» in Russian (the plural table has ответ|ответа|ответов); завершение is a literal calque of completion',
  },
  {
    id: 'update',
    en: side('update', 'updates?'),
    ru: side('обновление', 'обновлени\\p{L}*', 'итераци\\p{L}*'),
    why: 'one update is one sampled batch and its optimizer steps (шаг stays the Adam step)',
  },
  {
    id: 'batch',
    en: side('batch', 'batch(?:es)?', 'minibatch\\w*'),
    ru: side('батч', 'батч\\p{L}*', 'парти(?:я|и|ю|ей)', 'пачк\\p{L}*', 'минибатч\\p{L}*'),
    why: 'батч (мини-батч, микробатч) as in PyTorch talk; пакет stays the software or SCORM package',
  },
  {
    id: 'group',
    en: side('group', 'groups?'),
    ru: side('группа', 'групп\\p{L}*'),
    why: 'G answers to one prompt: the G of GRPO',
  },
  {
    id: 'token',
    en: side('token', 'tokens?'),
    ru: side('токен', 'токен\\p{L}*', 'лексем\\p{L}*'),
    why: 'токен, as in every tokenizer\'s documentation',
  },
  {
    id: 'mask',
    en: side('mask', 'mask(?:s|ed|ing)?'),
    ru: side('маска', 'маск\\p{L}*'),
    why: 'маска, маскировать: one root for masking tokens and truncated answers',
  },
];
