// Russian strings of sections 6-9 (training in the page); merged into ru.js. Every key of
// en-training.js, same markup and parameters.
export default {
  // --- управление запуском (раздел 6, а также 7-8 во встраиваемой странице) ------------------
  'train.controls': 'Управление обучением',
  'train.dock.label': 'Управление обучением для графиков на экране',
  'train.dock.settings': 'Настройки',
  'train.run': 'Запустить',
  'train.resume': 'Продолжить',
  'train.pause': 'Пауза',
  'train.step': 'Шаг',
  'train.stop': 'Стоп',
  'train.reset': 'Сбросить',
  'train.runTitle': 'Обучить с этой конфигурацией в фоновом обработчике, все обновления',
  'train.pauseTitle': 'Остановиться после текущего обновления',
  'train.stepTitle': 'Выполнить ровно одно обновление и ждать',
  'train.stopTitle': 'Завершить запуск сейчас и измерить политику как есть',
  'train.resetTitle': 'Отбросить этот запуск и снова показать заранее вычисленный',
  'train.progressLabel': 'Выполнено обновлений',
  'train.progress': '{done} / {total} обновлений',
  'train.elapsed': 'прошло {time}',
  'train.eta': 'осталось около {time}',
  'train.took': 'заняло {time}',
  'train.warmup': 'разогрев базовой политики и её измерение до RL…',
  'train.measuring': 'измерение политики после RL…',
  'train.refused': 'Не запущено: {message}',
  'train.fixForm': 'сначала исправьте выделенное поле',
  'train.source.loading': 'Загрузка заранее вычисленного запуска…',
  'train.source.empty':
    'Заранее вычисленного запуска нет ({error}). Нажмите **Запустить**, чтобы обучить свой: профиль smoke занимает несколько секунд.',
  'train.source.precomputed':
    'Показан **заранее вычисленный** запуск smoke (профиль `{profile}`, seed {seed}, lossType `{lossType}`, {updates} обновлений), посчитанный при сборке страницы тем же ядром (`tools/precompute.mjs`). Нажмите **Запустить**, чтобы обучить свой прямо в этой вкладке.',
  'train.source.live': 'Показан **ваш запуск** (профиль `{profile}`, seed {seed}, lossType `{lossType}`, {updates} обновлений), обученный в этой вкладке.',
  'train.source.imported': 'Показан запуск, импортированный из `{file}` (профиль `{profile}`, seed {seed}, lossType `{lossType}`), без переобучения.',
  'train.diverged':
    'Запуск разошёлся на обновлении {update}: {fields} стали NaN или бесконечностью, поэтому обучение остановлено. Графики и история показывают обновления до этого момента. Уменьшите скорость обучения или диапазон отсечения либо повысьте температуру и запустите снова.',
  'train.error': 'Запуск остановлен из-за ошибки: {message}',
  'train.announce.started': 'Обучение началось: {total} обновлений.',
  'train.announce.progress': 'Обучение: выполнено {percent}% ({done} из {total} обновлений).',
  'train.announce.paused': 'Пауза после обновления {done} из {total}.',
  'train.announce.resumed': 'Продолжено с обновления {done} из {total}.',
  'train.announce.finished': 'Выполнено {total} обновлений за {time}. Точность на train: {before} до RL, {after} после.',
  'train.announce.stopped': 'Остановлено после обновления {done} из {total}; политика измерена как есть.',
  'train.announce.diverged': 'Запуск разошёлся на обновлении {update} и остановлен.',
  'train.announce.showing': 'Показан завершённый запуск.',

  // --- раздел 6 ------------------------------------------------------------------------------
  'train.rl.explain':
    'Политика здесь — крошечная каузальная языковая модель: эмбеддинг токенов, один слой GRU и линейная голова над словарём из 16 токенов (цифры, `+`, `-`, `=`, конец последовательности). Короткий supervised-разогрев на зашумлённом учителе учит её формату ответа и делает её правой лишь иногда — как SFT перед RL. Затем каждое обновление берёт `promptBatch` train-промптов, семплирует группу из $G$ ответов на промпт из замороженной старой политики $\\pi_{\\text{old}}$, оценивает каждый верификатором из раздела 1 (награда = правильность + 0.1 × формат), превращает награды в групповые преимущества $\\hat A_i$ (раздел 3) и делает `updateEpochs` шагов Adam по отсечённому суррогату, сведённому по токенам согласно `lossType` (раздел 4):\n\n$$\\mathcal{J}(\\theta)=\\frac{1}{Z}\\sum_{i=1}^{G}\\sum_{t=1}^{|o_i|}\\min\\Big(\\rho_{i,t}\\hat A_i,\\ \\operatorname{clip}\\big(\\rho_{i,t},1-\\varepsilon_{\\text{low}},1+\\varepsilon_{\\text{high}}\\big)\\hat A_i\\Big)-\\beta\\,\\widehat{\\mathrm{KL}}\\big[\\pi_\\theta\\,\\|\\,\\pi_{\\text{ref}}\\big]$$\n\n$$\\rho_{i,t}=\\frac{\\pi_\\theta(o_{i,t}\\mid q,o_{i,<t})}{\\pi_{\\text{old}}(o_{i,t}\\mid q,o_{i,<t})}$$\n\nТочность всегда измеряется **свежей генерацией** после обновления, а не по наградам, на которых обновление обучалось. Обучение идёт в фоновом обработчике (Web Worker) на вашем CPU, по одному сообщению на обновление, поэтому страница не замирает; все числа ниже считает то же ядро на C++, что и в разделах 1-5.',
  'train.configTitle': 'Конфигурация (значения ноутбука для выбранного профиля)',
  'train.field.profile': 'профиль',
  'train.field.seed': 'seed',
  'train.hint.seed': 'Из него выводятся все случайные выборы запуска.',
  'train.field.groupSize': 'размер группы G (groupSize)',
  'train.field.promptBatch': 'промптов на обновление (promptBatch)',
  'train.field.updates': 'обновлений (updates)',
  'train.field.updateEpochs': 'эпох на обновление (updateEpochs)',
  'train.field.lossType': 'сведение потерь (lossType)',
  'train.field.scaleRewards': 'масштабирование наград (scaleRewards)',
  'train.field.epsLow': 'ε нижний (epsLow)',
  'train.field.epsHigh': 'ε верхний (epsHigh)',
  'train.field.beta': 'вес KL β (beta)',
  'train.field.temperature': 'температура (temperature)',
  'train.field.learningRate': 'скорость обучения (learningRate)',
  'train.field.maxNewTokens': 'максимум новых токенов (maxNewTokens)',
  'train.field.dynamicSampling': 'динамический отбор: отбрасывать группы с равными наградами (dynamicSampling)',
  'train.field.maskTruncated': 'маскировать обрезанные ответы (maskTruncated)',
  'train.field.importanceSamplingLevel': 'уровень отношения вероятностей (importanceSamplingLevel)',
  'train.field.sapoTemperaturePos': 'температура затвора SAPO при A > 0 (sapoTemperaturePos)',
  'train.field.sapoTemperatureNeg': 'температура затвора SAPO при A ≤ 0 (sapoTemperatureNeg)',
  'train.field.vespoKPos': 'форма k в VESPO при A ≥ 0 (vespoKPos)',
  'train.field.vespoLambdaPos': 'скорость λ в VESPO при A ≥ 0 (vespoLambdaPos)',
  'train.field.vespoKNeg': 'форма k в VESPO при A < 0 (vespoKNeg)',
  'train.field.vespoLambdaNeg': 'скорость λ в VESPO при A < 0 (vespoLambdaNeg)',
  'train.field.topEntropyQuantile': 'доля токенов с наибольшей энтропией, которые обучаются (topEntropyQuantile)',
  'train.field.useBiasCorrectionKl': 'KL-штраф, умноженный на отношение вероятностей (useBiasCorrectionKl)',
  'train.field.trainPrompts': 'обучающих промптов (trainPrompts)',
  'train.field.heldoutPrompts': 'отложенных промптов (heldoutPrompts)',
  'train.field.maxOperand': 'наибольший операнд (maxOperand)',
  'train.field.formatWeight': 'вес награды за формат (formatWeight)',
  'train.field.embed': 'размер эмбеддинга E (embed)',
  'train.field.hidden': 'скрытый размер GRU H (hidden)',
  'train.field.warmupSteps': 'шагов разогрева (warmupSteps)',
  'train.field.warmupLearningRate': 'скорость обучения при разогреве (warmupLearningRate)',
  'train.field.teacherAccuracy': 'точность учителя при разогреве (teacherAccuracy)',
  'train.field.maxGradNorm': 'ограничение нормы градиента (maxGradNorm)',
  'train.field.evalSamples': 'ответов на промпт после каждого обновления (evalSamples)',
  'train.field.finalEvalSamples': 'ответов на промпт до/после RL (finalEvalSamples)',
  'train.hint.default': 'по умолчанию {value} · TRL: {trl}',
  'train.hint.changed': 'изменено (по умолчанию {value}) · TRL: {trl}',
  'train.presetsLabel': 'Эксперименты (каждый заполняет форму; затем нажмите «Запустить»):',
  'train.preset.notebook': 'как в ноутбуке',
  'train.preset.kl': 'штраф KL β = 0.04',
  'train.preset.noClip': 'без отсечения, 4 эпохи',
  'train.preset.hotLr': 'высокая скорость обучения',
  'train.preset.dynamic': 'динамический отбор',
  'train.preset.smallGroup': 'группы по 2',
  'train.preset.gspo': 'отношение на уровне ответа (GSPO)',
  'train.preset.drGrpo': 'Dr. GRPO',
  'train.presetNote.notebook': 'Настройки ноутбука для этого профиля.',
  'train.presetNote.kl': 'β = 0.04 добавляет штраф KL (оценка k3) к замороженной референсной политике (разогретой базе): следите за линией KL в разделе 7 и за teacher-forced KL после RL.',
  'train.presetNote.noClip':
    'ε нижний 0.999 и ε верхний 10 на практике выключают отсечение, а 4 эпохи на обновление позволяют политике уйти от старой: следите за разбросом отношений в разделе 7.',
  'train.presetNote.hotLr': 'Скорость обучения в 20 раз выше стандартной и 4 эпохи: отношения расходятся, отсечение срабатывает, и запуск может стать неустойчивым.',
  'train.presetNote.dynamic': 'Группы с одинаковыми наградами выбрасываются из обновления (динамический отбор DAPO): доля отброшенных видна в истории.',
  'train.presetNote.smallGroup': 'G = 2: группа информативна, только когда один ответ верен, а другой нет; сравните долю информативных групп с G = 8.',
  'train.presetNote.gspo': 'Одно отношение вероятностей на ответ (геометрическое среднее по его токенам, как в GSPO) вместо одного на токен.',
  'train.presetNote.drGrpo': 'Dr. GRPO: центрированные награды без деления на std и постоянный нормировщик (раздел 4).',
  'train.runHeading': 'Запуск',
  'train.metricsTitle': 'До и после RL',
  'train.col.row': 'когда и на каких промптах',
  'train.metricsCaption': 'Метрики свежей генерации для показанного запуска, до и после RL, на train- и held-out-промптах.',
  'train.configPrinted': 'Конфигурация запуска',
  'train.configNote.precomputed': 'Конфигурация заранее вычисленного запуска (как ноутбук печатает asdict(experiment["config"])).',
  'train.configNote.live': 'Конфигурация вашего запуска, проверенная ядром (как ноутбук печатает asdict(experiment["config"])).',
  'train.configNote.imported': 'Конфигурация, сохранённая в {file}.',
  'train.configNote.none': 'Запуска пока нет.',
  'train.dataTitle': 'Запуск как данные',
  'train.dataBody':
    'Скачайте показанный запуск в JSON (конфигурация, метрики до/после, история, покрытие и чекпойнт обученной политики, который загружается в PyTorch: см. `docs/checkpoint.md`) или его таблицы в CSV. Импортируйте файл запуска, чтобы снова посмотреть его без переобучения.',
  'train.export.json': 'Скачать запуск (JSON)',
  'train.export.history': 'История (CSV)',
  'train.export.metrics': 'До/после (CSV)',
  'train.export.coverage': 'Покрытие (CSV)',
  'train.export.done': 'Сохранено: {name}.',
  'train.export.noCheckpoint': 'Сохранено: {name}, без чекпойнта (для этого запуска его нет).',
  'train.import.label': 'Импортировать файл запуска (JSON)',
  'train.import.done': 'Импортировано: {name}.',
  'train.import.failed': 'Не импортировано: {message}',
  'train.rl.notice':
    'Групповому обновлению нужны группы, где есть и успех, и неудача, поэтому разогретая политика до RL сделана правой лишь иногда (как выбраны задача и разогрев, сказано в `docs/training-page.md`). Сравните строки train со строками held-out — промптами, на которых не учились: то, что RL выигрывает на отрабатываемых промптах, не обязано переноситься, а `pass_at_4` может падать при растущей точности, когда политика чаще отвечает одинаково, верно или нет, и перебирает меньше вариантов. Строки ниже говорят, что сделал этот запуск. Потом измените одно (пресет, seed, функцию потерь) и запустите снова.',
  'train.rl.lesson':
    'В этом запуске точность на train прошла путь от {acc0} до {acc1}, а энтропия ответов — от {h0} до {h1}; KL к базовой политике (teacher-forced) в конце равен {kl1}.',
  'train.rl.lessonHeldLess':
    'На held-out-промптах точность прошла путь от {acc0} до {acc1} — меньше, чем на train (pass@4 {p0} → {p1}).',
  'train.rl.lessonHeldPassFell':
    'На held-out-промптах точность прошла путь от {acc0} до {acc1} — меньше, чем на train, а pass@4 упал с {p0} до {p1}: политика перебирает меньше разных ответов.',
  'train.rl.lessonHeldMore':
    'На held-out-промптах точность прошла путь от {acc0} до {acc1} — не меньше, чем на train (pass@4 {p0} → {p1}): в этом запуске выученное перенеслось.',

  // --- раздел 7 ------------------------------------------------------------------------------
  'train.updates.explain':
    'Каждая точка — одно обновление. **Точность свежей генерации** и **энтропия** измеряются на train-промптах по новым ответам после обновления. **Доля информативных групп** — доля групп обновления, награды в которых не все равны: только они несут градиент (раздел 2). **Отношения** $\\rho=\\pi_\\theta/\\pi_{\\text{old}}$ считаются по токенам за все эпохи обновления: первая эпоха начинается ровно с 1, следующие уходят от неё. **Доли отсечения** считают токены, отношение которых вышло за $[1-\\varepsilon_{\\text{low}},\\,1+\\varepsilon_{\\text{high}}]$ с той стороны, где отсечение обнуляет градиент (раздел 3); **KL** (оценка k3 к замороженной референсной политике) считается только при $\\beta>0$.',
  'train.chart.history': 'Точность, энтропия и информативные группы по обновлениям',
  'train.chart.ratio': 'Отношения вероятностей по обновлениям (пунктир: отношение 1)',
  'train.chart.clip': 'Доли отсечения и KL по обновлениям',
  'train.chart.loss': 'Потеря и норма градиента по обновлениям',
  'train.series.clipLow': 'отсечено снизу (ρ < 1 − ε нижн., A < 0)',
  'train.series.clipHigh': 'отсечено сверху (ρ > 1 + ε верхн., A > 0)',
  'train.series.clipRegion': 'вне диапазона отсечения',
  'train.series.kl': 'KL к референсу (правая ось)',
  'train.series.loss': 'потеря',
  'train.series.gradNorm': 'норма градиента до отсечения (правая ось)',
  'train.axis.fraction': 'доля токенов',
  'train.axis.kl': 'KL',
  'train.axis.loss': 'потеря',
  'train.axis.gradNorm': 'норма градиента',
  'train.chartNumbers': 'Все числа этого графика есть в таблице истории.',
  'train.historyLink': 'Перейти к таблице истории',
  'train.chartAria': 'Линейный график: {title}, за {n} обновлений. От первого обновления к последнему: {series}.',
  'train.historyTitle': 'Полная история',
  'train.history.pager': 'Страницы таблицы истории',
  'train.history.rows': 'Строки {from}–{to} из {n} (в CSV-файле истории — все)',
  'train.history.first': 'Первая',
  'train.history.previous': 'Предыдущая',
  'train.history.next': 'Следующая',
  'train.history.last': 'Последняя',
  'train.historyCaption': 'Строка на каждое обновление ({n} строк), как ноутбук показывает history.round(4).',
  'train.updates.empty': 'Обновлений пока нет.',
  'train.updates.summary':
    'За {n} обновлений: точность свежей генерации {acc0} → {acc1}, энтропия {h0} → {h1}, доля информативных групп {info0} → {info1}; отношения оставались в [{rmin}, {rmax}].',
  'train.updates.notice':
    'Читайте графики вместе. Группа, где все ответы верны (или все неверны), имеет равные награды и нулевые преимущества: чем чаще политика решает промпт, тем меньше он учит, так что GRPO может лишать себя сигнала по мере успеха. Отношения показывают, насколько обновление сдвинуло политику от той, что семплировала; доли клиппинга считают, где доверительная область остановила градиент. Строки ниже говорят, что сделал этот запуск. Попробуйте пресеты раздела 6: большой шаг обучения разбрасывает отношения и включает клиппинг, отключённый клиппинг показывает, что он сдерживал, а штраф KL держит политику ближе к базовой.',
  'train.updates.lessonSignal':
    'В этом запуске каждое из {n} обновлений имело информативные группы (доля от {min} до {max}).',
  'train.updates.lessonSilent':
    'В этом запуске {silent} из {n} обновлений не имели ни одной информативной группы (доля от {min} до {max}): эти обновления ничему не научили.',
  'train.updates.lessonStarves':
    'Доля информативных групп упала с {start} (первые {tail} обновлений) до {end} (последние {tail}): по мере успеха группы перестают расходиться во мнениях.',
  'train.updates.lessonKeepsSignal':
    'Доля информативных групп в этом запуске не упала ({start} в первых {tail} обновлениях, {end} в последних {tail}): при точности {acc1} большинство групп всё ещё смешивают верные и неверные ответы.',
  'train.updates.lessonRatios':
    'Отношения остались в [{rmin}, {rmax}], и ни в одном обновлении вне диапазона клиппинга не было больше {clip}% токенов.',

  // --- раздел 8 ------------------------------------------------------------------------------
  'train.chart.coverage': 'Доля правильных ответов по каждому train-промпту до и после RL',
  'train.chart.coverageHeldout':
    'Доля правильных ответов по каждому held-out-промпту до и после RL',
  'train.coverage.xSorted':
    'промпты по убыванию точности до RL',
  'train.col.lost':
    'потерял весь успех',
  'train.coverage.lostMark':
    '✗ потерян',
  'train.split.train':
    'train',
  'train.split.heldout':
    'held-out',
  'train.coverage.heldout':
    'Held-out ({n} промптов): решены хотя бы раз {solved0} → {solved1}, средняя точность {mean0} → {mean1}.',
  'train.coverage.holds':
    'В этом запуске успех сосредоточился на меньшем числе промптов, как и говорит ноутбук.',
  'train.coverage.fails':
    'В этом запуске успех не сосредоточился так, как говорит ноутбук: {missing}.',
  'train.coverage.missAccuracy':
    'средняя точность на train не выросла',
  'train.coverage.missSolved':
    'хотя бы раз решённых промптов не стало меньше',
  'train.coverage.missShare':
    'доля лучшей четверти не выросла',
  'train.coverage.lessonHolds':
    'В этом запуске весь успех потеряли train-промпты в числе {lost} из {n}: после RL хотя бы раз из {samples} попыток решены только {solved1}, хотя средняя точность выросла.',
  'train.coverage.lessonFails':
    'В этом запуске train-промпты в целом не потеряли покрытия (после RL хотя бы раз из {samples} попыток решены {solved1} из {n}): какая мера сдвинулась, видно в сводке выше.',
  'train.coverage.floor':
    '«Решён хотя бы раз» считает успехи среди {samples} свежих ответов на промпт: промпт, который политика решает с вероятностью {floor}% или выше, окажется решённым с шансом не меньше 95%, так что потерянный промпт лежит ниже примерно этой частоты, а не в нуле.',
  'train.chart.passAtK':
    'pass@k по k до и после RL',
  'train.passAtK.x':
    'k (попыток на промпт, логарифмическая шкала)',
  'train.passAtK.y':
    'pass@k',
  'train.passAtK.aria':
    'Линейный график: {y} в зависимости от «{x}», k от 1 до {n}, для: {curves}.',
  'train.passAtK.caption':
    'Средний несмещённый pass@k по промптам (оценка из раздела 5) до и после RL.',
  'train.passAtK.cross':
    'На {split}-промптах pass@k базовой политики обгоняет pass@k политики после RL при k = {k}: RL скорее заострил то, что базовая политика уже умела, чем расширил это.',
  'train.passAtK.noCross':
    'На {split}-промптах кривые не пересекаются до k = {n}: в этом запуске политика после RL впереди при каждом k.',
  'train.passAtK.waiting':
    'Кривые pass@k появятся, когда запуск закончится.',
  'train.coverage.aria':
    'Столбчатая диаграмма, {split}-промпты: {y} для каждого из {n} промптов до и после RL, по оси x «{x}»; среднее до {before}, после {after}; {lost} промптов потеряли весь успех (отмечены ✗).',
  'train.coverage.caption':
    'Доля правильных ответов по {split}-промптам до и после RL, по убыванию точности до RL.',
  'train.col.prompt': 'промпт',
  'train.coverage.summary':
    '{n} train-промптов, по {samples} свежих ответов на каждый. Средняя точность {mean0} → {mean1}. Решены хотя бы раз: {solved0} → {solved1} (потеряли весь успех: {lost}). Доля всех успехов у лучшей четверти ({top} промптов): {share0} → {share1}.',
  'train.coverage.waiting': '{n} train-промптов; до RL хотя бы раз решены {solved0} (среднее {mean0}). Столбцы «после RL» появятся, когда запуск закончится.',
  'train.coverage.empty': 'Запуска пока нет.',
  'train.inspect.title': 'Одна свежая группа под лупой',
  'train.inspect.explain':
    'Как в ноутбуке: `GRPOConfig(group_size=4, prompt_batch=2, updates=1, update_epochs=1, loss_type="dapo")`, генератор с seed `SEED + 777` и версия генератора `notebook-inspection`; ответы семплируются из обученной политики. В таблице — первая группа. Нажмите на ответ, чтобы увидеть его токены: вероятность, которую семплирующая политика дала каждому токену, $p=e^{\\log\\pi_{\\text{old}}}$, и преимущество ответа.',
  'train.inspect.another': 'Взять ещё одну свежую группу',
  'train.inspect.waiting': 'Группа появится, когда запуск закончится.',
  'train.inspect.loading': 'Семплируем свежую группу (seed {seed})…',
  'train.inspect.failed': 'Группа не получена: {message}',
  'train.inspect.drawn': 'Группа {n}: seed {seed}, промпт {prompt}, версия генератора {version}.',
  'train.inspect.caption': 'Первая группа свежего батча: промпт {prompt}.',
  'train.inspect.showTokens': 'Показать токены этого ответа',
  'train.inspect.pick': 'Нажмите на ответ выше, чтобы увидеть его токены, их вероятности и преимущество.',
  'train.inspect.tokensTitle': 'Токены ответа «{response}» на {prompt}',
  'train.inspect.tokensCaption': 'Каждый сгенерированный токен и вероятность, которую дала ему старая (семплирующая) политика.',
  'train.inspect.sequenceP': 'Вероятность всего ответа: {p}. Преимущество этого ответа (общее для всех его токенов): {advantage}.',
  'train.col.token': 'токен',
  'train.col.prob': 'вероятность p',
  'train.col.entropy': 'энтропия',
  'train.coverage.notice':
    'Сравнивайте столбцы по промптам, а не средние. Промпт с 0 и до, и после ни разу не дал успеха, а значит, и градиента; промпт с 1 тоже перестал вносить вклад, ведь все его группы верны. «Успех сосредоточился» — это три вещи сразу на train-промптах: среднее растёт, хотя бы раз решено меньше промптов, а лучшая четверть промптов держит бóльшую долю успехов (`docs/coverage.md`). Потерянный промпт оттеснён к малой вероятности, а не доказанно нерешаем: график pass@k ниже задаёт тот же вопрос по всем k: догоняет ли базовая политика обученную с ростом k. В рассмотренной группе равные награды означают нулевые преимущества: такая группа ничему политику не учит.',

  // --- раздел 9 ------------------------------------------------------------------------------
  'train.real.noClaimTitle': 'Никаких утверждений о реальной модели.',
  'train.real.noClaim':
    'Эта страница никогда не скачивает и не запускает Qwen3-0.6B, TRL или код для GPU и ничего не утверждает о времени работы, расходе памяти или качестве реальной модели. Все числа на странице получены на игрушечной политике GRU, обученной в вашем браузере.',
  'train.real.snapshotTitle': 'Зафиксированный набор версий',
  'train.real.snapshotCaption': 'SOFTWARE_SNAPSHOT, как его фиксирует ноутбук.',
  'train.real.package': 'пакет',
  'train.real.version': 'версия',
  'train.real.requirements': 'требования',
  'train.real.printed': 'print(SOFTWARE_SNAPSHOT):',
  'train.real.cellTitle': 'Ячейка TRL из ноутбука (показана, не выполняется)',
  'train.real.cellExplain':
    'При `RUN_REAL_MODEL = False` ноутбук пропускает ветвь ниже и печатает `REAL_MODEL_SKIPPED`. Каждый неоднозначный выбор GRPOConfig указан явно: сведение потерь, масштабирование наград, уровень importance sampling, обе границы отсечения, β и маскирование обрезанных ответов.',
  'train.real.output': 'Вывод:',
  'train.real.translatedTitle': 'Ваша игрушечная конфигурация как аргументы TRL GRPOConfig',
  'train.real.translatedExplain':
    'Конфигурация из раздела 6 с именами параметров TRL, чтобы те же решения перенести в TRL на GPU. Она следует за формой по мере правки. Модель, датасет, функцию награды и размеры батчей выбираете вы; комментарии называют поле этой страницы, из которого взят каждый аргумент.',
  'train.real.copy': 'Скопировать Python',
  'train.real.copied': 'Скопировано.',
  'train.real.selected': 'Выделено: нажмите Ctrl+C (⌘C), чтобы скопировать.',
  'train.real.batchNote':
    'Одно обновление здесь семплирует {prompts} промптов × {group} ответов = {completions} ответов; в TRL это батч генерации (per_device_train_batch_size × gradient_accumulation_steps × число процессов).',
  'train.real.dynamicNote':
    'dynamicSampling=True (отбрасывание групп с равными наградами) не входит в переведённые здесь аргументы; проверьте, как его предлагает ваша версия TRL.',
  'train.field.advantageEstimator': 'оценка преимущества: какой базовый уровень вычитается из награды (advantageEstimator)',
  'train.ancestorsLabel': 'GRPO и его предки (каждый задаёт оценку преимущества; нажмите «Запустить», затем следующий, с тем же сидом):',
  'train.preset.estimator_grpo': 'GRPO: среднее и std группы',
  'train.preset.estimator_dr_grpo': 'среднее группы без std',
  'train.preset.estimator_rloo': 'RLOO: среднее без самого ответа',
  'train.preset.estimator_reinforce_baseline': 'REINFORCE со средним по батчу',
  'train.preset.estimator_reinforce': 'REINFORCE без базового уровня',
  'train.presetNote.estimator_grpo': 'GRPO, как в ноутбуке: награда минус среднее её группы, делённое на std группы (scaleRewards).',
  'train.presetNote.estimator_dr_grpo': 'Базовый уровень — среднее группы, без деления на std: группа с редким успехом получает слабый толчок, а не нормированный.',
  'train.presetNote.estimator_rloo': 'RLOO (RLOOTrainer из TRL): награда минус среднее остальных G − 1 наград её группы, то есть G/(G − 1), умноженное на центрированную награду.',
  'train.presetNote.estimator_reinforce_baseline': 'Один базовый уровень на весь батч: группы, где все ответы верны, всё равно толкают свои ответы вверх, а лёгкие задачи перевешивают трудные.',
  'train.presetNote.estimator_reinforce': 'Сама награда как преимущество: каждый награждённый ответ толкается вверх, и ничто не толкается вниз; следите за нормой градиента и энтропией.',
  'train.ancestors.explain': 'Преимущество в GRPO — это награда минус базовый уровень, и его предки отличаются только этим уровнем. REINFORCE обходится без него: градиент верен в среднем, но шумен, потому что толкает каждый награждённый ответ, какой бы ни была задача. Среднее по батчу убирает общий уровень, но лёгкая задача всё равно толкает все свои ответы вверх, а трудная — вниз. Групповой базовый уровень (среднее группы в GRPO или, в RLOO, среднее остальных ответов, куда сам ответ не входит, так что градиент остаётся несмещённым) сравнивает ответы на одну и ту же задачу: он убирает из сигнала трудность задачи, что снижает дисперсию, и даёт ровно ноль группе с равными наградами, так что политику двигают только информативные группы (часть ответов верна, часть нет). Запустите пять пресетов с одним сидом и сравните точность, норму градиента и энтропию в разделе 7.',
  'train.real.estimatorNote': 'advantageEstimator={estimator}: в GRPOConfig такого поля нет (единственный базовый уровень GRPO — среднее группы); rloo вычисляет RLOOTrainer из TRL, а dr_grpo — это scale_rewards="none".',
  'train.real.untranslated': 'нет аргумента GRPOConfig',
  'train.real.source': 'Переведено из формы раздела 6: профиль {profile}, seed {seed}.',
  'train.real.notice':
    'Игрушечный запуск и шаблон TRL делают явными одни и те же решения: как взвешиваются токены (loss_type), как масштабируются награды, где отсекается отношение, тянет ли член KL к референсу и как учитываются обрезанные ответы. Не переносится масштаб: GRU со словарём из 16 токенов ничего не говорит о времени, памяти или итоговом качестве модели на 0.6 млрд параметров, и эта страница не делает вид, что говорит.',
  // --- сравнение запусков (раздел 7): библиотека, запуск по сидам, наложение --------------------
  'compare.title': 'Сравнение запусков',
  'compare.explain':
    'Каждый завершённый запуск этой вкладки попадает в библиотеку, которая переживает перезагрузку (последние 50 запусков или 20 МБ). Отметьте до четырёх, чтобы наложить их друг на друга. «Запуск по сидам» обучает текущую конфигурацию на N сидах в параллельных фоновых воркерах; график показывает их среднее с полосой от минимума до максимума (худший и лучший сид на каждом обновлении). Запустите две конфигурации на одних и тех же сидах, чтобы получить парное сравнение.',
  'compare.seedsLabel': 'Сидов',
  'compare.runSeeds': 'Запуск по сидам',
  'compare.progressLabel': 'Выполнено обновлений по всем сидам',
  'compare.running': '{n} сидов в {workers} воркерах…',
  'compare.progress': '{done} / {total} обновлений; готово сидов: {finished} из {n} (воркеров: {workers})',
  'compare.done': 'Готово сидов: {n}.',
  'compare.failed': 'Запуск по сидам не удался: {message}',
  'compare.libraryTitle': 'Библиотека запусков',
  'compare.libraryEmpty': 'Запусков пока нет: завершите запуск или импортируйте файл.',
  'compare.libraryError': 'Библиотека запусков здесь недоступна: {message}',
  'compare.clear': 'Очистить библиотеку',
  'compare.metric': 'Метрика',
  'compare.chartTitle': 'Сравнение запусков по обновлениям',
  'compare.chartAria': 'Линейный график: {n} выбранных запусков и серия из {seeds} сидов (среднее с полосой от минимума до максимума) по обновлениям.',
  'compare.batchName': 'среднее по {n} сидам: {name}',
  'compare.batchShort': 'среднее по {n} сидам',
  'compare.bandMax': 'максимум по сидам',
  'compare.bandMin': 'минимум по сидам (полоса: от минимума до максимума)',
  'compare.diffCaption': 'Чем различаются сравниваемые запуски',
  'compare.field': 'Поле',
  'compare.noDiff': 'Конфигурации совпадают',
  'compare.seed': 'Сид',
  'compare.seedCaption': 'Точность до и после RL по сидам (сидов: {n})',
  'compare.trainBefore': 'обучение, до',
  'compare.trainAfter': 'обучение, после',
  'compare.heldoutBefore': 'отложенные, до',
  'compare.heldoutAfter': 'отложенные, после',
  'compare.pairedCaption': 'Точность на отложенных задачах после RL, в парах по сидам',
  'compare.pairedSummary': 'Парное сравнение по {n} сидам, A = {a}, B = {b}: за B {favourB} сидов, за A {favourA}, ничьих {ties}; средняя разность B − A = {mean}.',
  'compare.exportJson': 'Экспорт сравнения (JSON)',
  'compare.exportCsv': 'Экспорт сравнения (CSV)',
  'compare.exportPng': 'График в PNG',
  'compare.source.live': 'живой',
  'compare.source.precomputed': 'заранее рассчитанный',
  'compare.source.imported': 'импортированный',
  'compare.source.seeds': 'серия сидов',
};
