// Русские строки галереи уроков (training/lessons.js, в панели сравнения раздела 7); сливаются
// в ru.js. Утверждение урока — придаточное: вердикты ставят его после «что».
export default {
  'plural.seedOf': 'сида|сидов|сидов|сида',
  'lesson.title': 'Галерея уроков: зачем нужна каждая ручка — по запускам',
  'lesson.explain':
    'Каждый урок — одно парное сравнение: вариант A и вариант B на одних и тех же сидах (поле «Сидов» выше; сиды 0, 1, 2, …), в параллельных воркерах; на графике — среднее с полосой от минимума до максимума, а судит правило, записанное рядом. Сид показывает урок, если правило выполняется для его пары запусков; урок виден, если его показывают не меньше 70% сидов. Бенчмарк ещё запускает нулевой контроль (A против A на сидах 10–19); страница его не запускает.',
  'lesson.metric.entropy': 'энтропия обучаемой политики (entropy в TRL)',
  'lesson.metric.meanLength': 'средняя длина ответа',
  'lesson.metric.truncatedFraction': 'доля обрезанных ответов',
  'lesson.run': 'Запустить урок',
  'lesson.setup': 'Условия: {setup}. A: {a}. B: {b}.',
  'lesson.rule': 'Правило: {rule}.',
  'lesson.running': 'Урок «{name}»: {n} {n#run} (2 варианта × {seeds} {seeds#seed}) в {workers} {workers#workerIn}…',
  'lesson.none': 'значения профиля по умолчанию',
  'lesson.verdict.shown': 'Урок виден на {count} из {n} {n#seedOf} (нужно {need}): {claim}.',
  'lesson.verdict.partly': 'Урок не виден: лишь на {count} из {n} {n#seedOf} оказалось, что {claim} (нужно {need}).',
  'lesson.verdict.none': 'Урок не виден ни на одном из {n} {n#seedOf}: ни на одном не оказалось, что {claim}.',
  'lesson.verdict.noneOne': 'На этом сиде урок не виден: не оказалось, что {claim}.',
  'lesson.verdict.empty': 'Ни одна пара запусков не завершилась: судить не о чем.',

  'lesson.clipHigher.name': 'Clip-higher (DAPO)',
  'lesson.clipHigher.question': 'Когда сэмплер отстаёт, держит ли ε_high = 0.28 энтропию выше, чем 0.2, при той же или лучшей точности?',
  'lesson.clipHigher.claim': 'энтропия B к концу выше, чем у A, больше чем на {entropy} ната, а точность на train-промптах ниже не больше чем на {accuracy}',
  'lesson.clipHigher.values': 'Средние по {n} {n#seedDat}: энтропия за последнюю четверть обновлений {a_entropy} (A) и {b_entropy} (B); точность на train-промптах после RL {a_accuracy} и {b_accuracy}.',

  'lesson.dynamicSampling.name': 'Динамическое сэмплирование (DAPO)',
  'lesson.dynamicSampling.question': 'Если отбрасывать группы с одинаковыми наградами, получится ли та же точность при меньшем числе ответов в обучении? (Меньше ответов, а не обновлений: отброшенная группа здесь не досэмплируется.)',
  'lesson.dynamicSampling.claim': 'B обучается на меньшем числе ответов, чем A (отбрасывает группы с нулевым преимуществом), а его точность на train-промптах за то же число обновлений уступает точности A не больше чем на {accuracy}',
  'lesson.dynamicSampling.values': 'Средние по {n} {n#seedDat}: доля каждой генерации, на которой идёт обучение, {a_trained} (A) и {b_trained} (B); доля групп с нулевым преимуществом {a_zeroStd} и {b_zeroStd}; точность на train-промптах после RL {a_accuracy} и {b_accuracy}.',

  'lesson.isCorrection.name': 'Поправка по важности (IS)',
  'lesson.isCorrection.question': 'Сэмплер отстаёт на одно обновление (среднее |Δlog p| заметно меньше 0.1): помогает ли поправка точности?',
  'lesson.isCorrection.claim': 'точность на train-промптах у B (с поправкой) к концу выше, чем у A (без неё), больше чем на {accuracy}',
  'lesson.isCorrection.values': 'Средние по {n} {n#seedDat}: точность на train-промптах после RL {a_accuracy} (A) и {b_accuracy} (B); среднее |Δlog p| между сэмплером и обучаемой политикой {a_logpDiff} и {b_logpDiff}.',

  'lesson.klBeta.name': 'KL к референсной политике (β)',
  'lesson.klBeta.question': 'Держит ли β = 0.04 политику ближе к референсной политике (KL при teacher forcing), чем β = 0, и чего это стоит в точности?',
  'lesson.klBeta.claim': 'KL политики B к эталону после RL (при teacher forcing) меньше {ratio} от KL политики A',
  'lesson.klBeta.values': 'Средние по {n} {n#seedDat}: KL при teacher forcing после RL {a_kl} (A) и {b_kl} (B); точность на train-промптах после RL {a_accuracy} и {b_accuracy}.',

  'lesson.adaptiveEntropy.name': 'Адаптивный контроль энтропии',
  'lesson.adaptiveEntropy.question': 'Удерживает ли адаптивный бонус энтропию обучаемой политики около цели?',
  'lesson.adaptiveEntropy.claim': 'энтропия B за последнюю четверть обновлений отличается от цели меньше чем на {gap} ната, а энтропия A — нет',
  'lesson.adaptiveEntropy.values': 'Средние по {n} {n#seedDat}: энтропия за последнюю четверть {a_entropy} (A) и {b_entropy} (B), расстояние до цели {a_gap} и {b_gap}.',

  'lesson.overlong.name': 'Штраф за длину (DAPO)',
  'lesson.overlong.question': 'В задаче с ответами разной длины оставляет ли мягкий штраф за длину меньше обрезанных ответов?',
  'lesson.overlong.claim': 'доля обрезанных ответов B за последнюю четверть обновлений ниже, чем у A, больше чем на {truncated}',
  'lesson.overlong.values': 'Средние по {n} {n#seedDat}: доля обрезанных за последнюю четверть {a_truncated} (A) и {b_truncated} (B); точность на train-промптах после RL {a_accuracy} и {b_accuracy}.',

  'lesson.lengthBias.name': 'Смещение по длине (Dr. GRPO)',
  'lesson.lengthBias.question': 'В задаче с ответами разной длины выходят ли ответы длиннее при усреднении grpo по каждому ответу, чем при dr_grpo? (Длины верных и неверных ответов по отдельности не записываются: сравнивается средняя длина.)',
  'lesson.lengthBias.claim': 'средняя длина ответов B за последнюю четверть обновлений больше, чем у A, больше чем на {length} {length#token}',
  'lesson.lengthBias.values': 'Средние по {n} {n#seedDat}: длина ответа за последнюю четверть {a_length} (A) и {b_length} (B) токенов; её изменение с первой четверти {a_growth} и {b_growth}.',

  'lesson.coverage.name': 'Покрытие сужается (раздел 8)',
  'lesson.coverage.question': 'Сосредоточен ли успех после RL на меньшем числе промптов сверх случайности, тогда как у запуска, остановленного после одного обновления, — нет?',
  'lesson.coverage.claim': 'вердикт раздела 8 называет запуск B сосредоточенным (меньше решённых промптов сверх случайности, точность и доля лучшей четверти выросли), а запуск A — нет',
  'lesson.coverage.values': 'Средние по {n} {n#seedDat}: доля запусков, названных сосредоточенными, {a_concentrated} (A) и {b_concentrated} (B); train-промптов, решённых хотя бы раз после RL, {a_solved} и {b_solved}; доля лучшей четверти {a_share} и {b_share}.',

  'lesson.passAtK.name': 'pass@k пересекаются (раздел 8)',
  'lesson.passAtK.question': 'Обгоняет ли на train-промптах pass@k базовой политики pass@k политики после RL при больших k, тогда как у запуска, остановленного после одного обновления, — нет?',
  'lesson.passAtK.claim': 'pass@k B на train-промптах пересекаются (при малых k впереди RL, при больших — база, сверх шума), а у A — нет',
  'lesson.passAtK.values': 'Средние по {n} {n#seedDat}: доля запусков с пересечением pass@k {a_crossed} (A) и {b_crossed} (B); k пересечения у B {b_k}.',

  'lesson.ancestors.name': 'GRPO против предков',
  'lesson.ancestors.question': 'Побеждает ли групповой baseline GRPO простой REINFORCE (без baseline) на тех же сидах?',
  'lesson.ancestors.claim': 'точность на held-out-промптах у B (GRPO) к концу выше, чем у A (REINFORCE), больше чем на {accuracy}',
  'lesson.ancestors.values': 'Средние по {n} {n#seedDat}: точность на held-out-промптах после RL {a_accuracy} (A) и {b_accuracy} (B).',
};
