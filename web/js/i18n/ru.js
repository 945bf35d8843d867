// Russian strings: every key of en.js (a test fails on a missing or extra key).
// The UPPER_CASE keys are the notebook's chart-label constants, copied exactly from seeds/004_*.txt.

import training from './ru-training.js'; // sections 6-9 (training) keep their strings there
import trl from './ru-trl.js'; // TRL fidelity: metric meanings, no-effect warnings
import form from './ru-form.js'; // section 6's config form
import compare from './ru-compare.js'; // the compare panel's drawing, the picks' legends
import lessons from './ru-lessons.js'; // the lessons gallery (training/lessons.js)
import teacher from './ru-teacher.js'; // the instructor page (teacher.html)
import coreMessages from './ru-core.js'; // the core's error codes (core.messageCodes())
import recovery from './ru-recovery.js'; // ways out: offline updates, link budget, library checks
import verdicts from './ru-verdicts.js'; // sentences of sections 6-8 chosen by verdicts.js
import inspector from './ru-inspector.js'; // section 7's step inspector (training/step-inspector.js)

export default {
  // --- Константы ноутбука (seeds/004_*.txt), точные строки -------------------------------
  INFO_X: 'вероятность успеха одного ответа p',
  INFO_Y: 'вероятность информативной группы',
  FINITE_REWARD: 'ожидаемая награда',
  FINITE_ENTROPY: 'энтропия',
  FINITE_X: 'шаг точного обновления',
  BEFORE_TRAIN: 'до RL, train',
  AFTER_TRAIN: 'после RL, train',
  BEFORE_HELDOUT: 'до RL, held-out',
  AFTER_HELDOUT: 'после RL, held-out',
  HIST_ACCURACY: 'точность свежей генерации',
  HIST_ENTROPY: 'энтропия',
  HIST_INFO: 'доля информативных групп',
  HIST_X: 'обновление',
  RATIO_MIN: 'минимальное отношение',
  RATIO_MEAN: 'среднее отношение',
  RATIO_MAX: 'максимальное отношение',
  COVERAGE_BEFORE: 'до RL',
  COVERAGE_AFTER: 'после RL',
  COVERAGE_Y: 'доля правильных ответов',
  REAL_MODEL_SKIPPED:
    'Реальная ветвь выключена. Установите RUN_REAL_MODEL=True только в подготовленной GPU-среде.',

  // --- Оформление страницы -------------------------------------------------------------------
  'page.title': 'Модуль 9. RLVR и GRPO: проверяемые награды, групповые оценки и устойчивость',
  'page.kicker': 'GRPO Lab · RL для LLM, модуль 9',
  'page.docTitle': 'GRPO Lab: RLVR и GRPO (модуль 9)',
  'page.intro':
    'Эта страница — живой спутник ноутбука модуля. Она связывает уравнения модуля с практикой: каждая таблица и каждый график ниже вычисляются на вашем процессоре, прямо в браузере, ядром на C++17, скомпилированным в WebAssembly. На сервер ничего не отправляется.\n\nЦель — не получить одну красивую кривую награды, а проверить весь контракт: поведение верификатора, распределение поведенческой политики, роли политик, редукцию лосса, свежую генерацию, энтропию, покрытие и перенос.',
  'page.skip': 'Перейти к содержимому',
  'page.toc': 'Содержание',
  'page.language': 'Язык',
  'page.coreFailed':
    'Не удалось загрузить ядро WebAssembly ({message}). Пояснения можно читать, но живым виджетам нужно ядро (соберите его командой `bash tools/build.sh`).',
  'page.footer':
    'GRPO Lab. Каждое число на этой странице считает то же ядро на C++, которое проверяют тесты курса в Node; настройки виджетов хранятся в ссылке, поэтому по присланной ссылке видно ровно то же, что у вас.',
  'page.copyLink': 'Скопировать ссылку на это состояние',
  'page.copied': 'Ссылка скопирована.',
  'page.copyFailed': 'Скопировать не удалось; ссылка — в адресной строке.',
  'page.reset': 'Сбросить раздел',
  'page.widgetLoading': 'Загружается живой виджет…',
  'lazy.failed': 'Эту часть страницы не удалось загрузить: нет сети, или сайт за это время обновился.',
  'lazy.retry': 'Повторить',
  'lazy.retrying': 'Загрузка…',
  'offline.updateReady': 'Готова новая версия GRPO Lab.',
  'offline.reload': 'Перезагрузить',
  'page.embedLink': 'Встроить этот раздел',
  'lang.en': 'English',
  'lang.ru': 'Русский',

  'url.noteTitle': 'Некоторые настройки в ссылке были недопустимы и заменены значениями по умолчанию:',
  'url.bad': '{key} = «{value}»: {reason}. Используется {fallback}.',
  'url.unknown': '{key}: неизвестная настройка, пропущена.',
  'url.tooLong': 'текст слишком длинный для ссылки',
  'url.notNumber': 'это не число',
  'url.notInteger': 'это не целое число',
  'url.outOfRange': 'должно быть от {min} до {max}',
  'url.notOption': 'допустимо одно из: {options}',
  'url.notList': 'это не список чисел через запятую',
  'url.notBool': 'допустимо 1 или 0',
  'url.more': '… и ещё {n}.',
  'url.hashTooLong': 'В ссылке {size} символов настроек, больше допустимых для этой страницы {max}: ни одна из них не применена.',
  'url.dismiss': 'Закрыть',

  'embed.openFull': 'Открыть полную страницу курса',
  'embed.unknown': 'Неизвестный раздел «{id}». Выберите один из разделов ниже.',
  'embed.pick': 'Разделы, которые можно встроить',
  'embed.frameTitle': 'GRPO Lab: {title}',

  'common.yes': 'да',
  'common.no': 'нет',
  'common.pass': 'верно',
  'common.fail': 'неверно',
  'common.notice': 'На что обратить внимание',
  'common.chartData': 'Числа графика в виде таблицы',
  'common.chartPng': 'Сохранить график в PNG',
  'chart.axes': 'Оси: {axes}.',
  'chart.axis.x': 'горизонтальная — {title}',
  'chart.axis.y': 'вертикальная — {title}',
  'chart.axis.right': 'вертикальная справа — {title}',
  'common.infinity': '∞',
  'common.errorIn': 'Не вычислено: {message}',
  'common.sectionError': 'Виджет не смог выполнить расчёт: {message}',
  'common.stale': 'Результаты ниже — для последних допустимых значений; исправьте выделенное поле, чтобы их обновить.',
  'common.hintList': 'Числа через запятую.',
  'common.row': 'строка {n}',

  // --- 0. Настройка ---------------------------------------------------------------------------
  'setup.title': '0. Воспроизводимая настройка',
  'setup.body':
    '`PROFILE="smoke"` выполняет весь обязательный маршрут. `PROFILE="full"` увеличивает вычислительный бюджет эксперимента на CPU. В ноутбуке код сам находит корень распакованного курса; здесь искать нечего: страница несёт собственное ядро.\n\nПрофиль и сид ниже настраивают обучение в разделах 6–8; как и любой элемент управления на странице, они хранятся в ссылке, так что присланная ссылка воспроизводит запуск.',
  'setup.profile': 'Профиль',
  'setup.profile.smoke': 'smoke: секунды',
  'setup.profile.full': 'full: больший бюджет CPU',
  'setup.seed': 'Сид',
  'setup.seedHint': 'Целое число от 0 до 4294967295; в ноутбуке — 9.',
  'setup.language': 'Язык',
  'setup.run': 'Запустить обучение разделов 6–8',
  'setup.runNote':
    'Обучает конфигурацию раздела 6 с этими профилем и сидом в фоновом воркере на вашем CPU. Пока запуск идёт, его кнопки остаются внизу экрана, где бы вы ни читали, а разделы 6–8 показывают запуск по ходу обучения.',
  'setup.whereTitle': 'Что и где выполняется',
  'setup.where.core': 'Ядро',
  'setup.where.coreValue': 'C++17, скомпилированный в WebAssembly (ядро {version}, {methods} функций), готово за {ms} мс',
  'setup.where.device': 'Устройство',
  'setup.where.deviceValue': 'ваш процессор, внутри этой вкладки браузера; без GPU',
  'setup.where.server': 'Сервер',
  'setup.where.serverValue': 'нет: ни один запрос не уходит с этого сайта',
  'setup.where.offline': 'Работа без сети',
  'setup.where.offline.active': 'да, файлов в кэше: {files} ({size} МБ); перезагрузка без сети тоже работает',
  'setup.where.offline.pending': 'пока нет: курс сохраняется для работы без сети',
  'setup.where.offline.interrupted': 'пока нет: сохранение курса прервалось (файл не удалось загрузить); при следующем открытии браузер попробует снова',
  'setup.where.offline.file': 'нет: страница открыта из файла (в ней есть всё нужное, сохранять нечего)',
  'setup.where.offline.singleFile': 'сохранять нечего: эта страница — один файл, в котором есть всё нужное',
  'setup.where.offline.scorm': 'не в пакете для LMS: его файлы отдаёт LMS',
  'setup.where.offline.frame': 'не в этой рамке: откройте саму страницу курса, чтобы сохранить её для работы без сети',
  'setup.where.offline.unsupported': 'нет: браузер здесь этого не позволяет (нужен HTTPS, а service worker можно выключить)',
  'setup.where.offline.disabled': 'выключена: `?nosw` в адресе удалил сохранённую копию',
  'setup.where.offline.failed': 'нет: курс не удалось сохранить ({message})',
  'setup.where.realModel': 'Ветвь с реальной моделью (Qwen3-0.6B + TRL)',
  'setup.where.realModelValue': 'выключена: `RUN_REAL_MODEL = False`',
  'setup.where.profile': 'Профиль и сид',
  'setup.printed': 'Что печатает ячейка настройки ноутбука при этих значениях:',
  'setup.notice':
    'Сид фиксирует все случайные выборки обучения: один и тот же сид и та же конфигурация дают одинаковые числа в любом браузере и в Node, потому что ядро использует собственный генератор случайных чисел.',

  // --- 1. Верификатор -------------------------------------------------------------------------
  'verifier.title': '1. Проверяем верификатор до обучения',
  'verifier.body':
    'Положительные, отрицательные и состязательные примеры идут раньше оптимизации политики. Упражнение заодно показывает границу учебного парсера: он воспроизводим, но не является общим доказателем математической эквивалентности.\n\nПравила: если в ответе есть `\\boxed{...}` (также `\\\\boxed{...}` или `\\fbox{...}`), кандидат — содержимое **последней** рамки, а рамка не с числом означает неверный ответ, без отката к числам вне её. Иначе кандидат — **последнее** число в тексте. Число — целое или десятичное (`42`, `-7`, `0.25`, `.5`), с необязательным порядком (`1e3`, `1E-2`) и группами разрядов ровно по три цифры (`1,000`, `12,345,678`, `1,000.5`; в `3, 4` и `1,2,3` запятая разделяет числа), или дробь (`3/7`, `3 / 7`, `\\frac{a}{b}`, `\\dfrac{a}{b}`); знак валюты перед ним (`$1,250`, `€5`), знак процента (`50%` и `50\\%` — это 50), единица после него (`5kg`, `5 cm`, `30°`, `30^\\circ`) и выделение (`**73**`, `\\text{13}`) его не прячут. Эталон можно записать в любой из этих нотаций. Нулевой знаменатель недопустим. Кандидат $\\hat y$ совпадает с эталоном $y$, когда',
  'verifier.formula': '$$|\\hat y - y| \\le 10^{-6}\\,\\max(1, |y|)$$',
  'verifier.casesTitle': 'Пять случаев из ноутбука, проверка вживую',
  'verifier.casesCaption': 'Случаи верификатора из ноутбука: наблюдаемый вердикт против ожидаемого.',
  'verifier.col.text': 'текст',
  'verifier.col.reference': 'эталон',
  'verifier.col.observed': 'получено',
  'verifier.col.expected': 'ожидается',
  'verifier.col.pass': 'проверка',
  'verifier.col.status': 'статус',
  'verifier.allPass': 'Все {n} случаев выполняются, как и утверждает ноутбук.',
  'verifier.someFail': 'Не выполняются {failed} из {n} случаев.',
  'verifier.tryTitle': 'Проверьте любой ответ',
  'verifier.text': 'Ответ модели',
  'verifier.reference': 'Эталонный ответ',
  'verifier.presets': 'Состязательные примеры',
  'verifier.preset.earlier': 'число раньше ответа',
  'verifier.preset.corrected': 'исправленная рамка',
  'verifier.preset.divzero': 'деление на ноль',
  'verifier.preset.word': 'число внутри слова',
  'verifier.preset.unclosed': 'незакрытая рамка',
  'verifier.preset.fraction': 'дробь LaTeX',
  'verifier.preset.unit': 'единица и степень',
  'verifier.preset.latexRef': 'эталон в LaTeX',
  'verifier.preset.escaped': 'обратные косые черты из JSON',
  'verifier.preset.currency': 'доллары с разрядами',
  'verifier.preset.degrees': 'градусы в рамке',
  'verifier.reason.unclosed_box':
    'Последняя рамка {box}{ не закрывается парной скобкой «}», поэтому ответ недопустим; числа вне рамки не используются.',
  'verifier.reason.empty_box': 'Последняя рамка {box}{} пуста, поэтому ответ недопустим; числа вне рамки не используются.',
  'verifier.reason.box_not_number':
    'Последняя рамка {box}{...} содержит «{content}», а это не одно число, поэтому ответ недопустим; числа вне рамки не используются.',
  'verifier.reason.no_number': 'В тексте нет ни \\boxed{...}, ни отдельного числа, поэтому проверять нечего.',
  'verifier.reason.box_zero_denominator':
    'Последняя рамка {box}{...} содержит «{content}» — дробь с нулевым знаменателем, поэтому ответ недопустим; более раннее число не используется.',
  'verifier.reason.text_zero_denominator':
    'Последнее число в тексте — «{candidate}», дробь с нулевым знаменателем, поэтому ответ недопустим; более раннее число не используется.',
  'verifier.reason.box_non_finite':
    'Последняя рамка {box}{...} содержит «{content}», значение которого слишком велико для представления (не конечно), поэтому ответ недопустим; более раннее число не используется.',
  'verifier.reason.text_non_finite':
    'Последнее число в тексте — «{candidate}», его значение слишком велико для представления (не конечно), поэтому ответ недопустим; более раннее число не используется.',
  'verifier.reason.box_equal':
    'Последняя рамка {box}{...} содержит «{content}» = {value}, что совпадает с эталоном {reference} с точностью 1e-6 · max(1, |эталон|).',
  'verifier.reason.box_differs':
    'Последняя рамка {box}{...} содержит «{content}» = {value}, что отличается от эталона {reference} больше чем на 1e-6 · max(1, |эталон|).',
  'verifier.reason.text_equal':
    'Последнее число в тексте — «{candidate}» = {value}, что совпадает с эталоном {reference} с точностью 1e-6 · max(1, |эталон|).',
  'verifier.reason.text_differs':
    'Последнее число в тексте — «{candidate}» = {value}, что отличается от эталона {reference} больше чем на 1e-6 · max(1, |эталон|).',
  'verifier.result': 'Вердикт',
  'verifier.verdict': 'вердикт (награда)',
  'verifier.status': 'статус',
  'verifier.candidate': 'извлечённый кандидат',
  'verifier.value': 'его значение',
  'verifier.rule': 'решившее правило',
  'verifier.reason': 'пояснение ядра',
  'verifier.none': '(нет)',
  'verifier.status.correct': 'верно',
  'verifier.status.incorrect': 'неверно',
  'verifier.status.no_answer': 'нет ответа',
  'verifier.status.invalid': 'недопустимо',
  'verifier.status.truncated': 'обрезан',
  'verifier.ruleName.last_box': 'решает последняя рамка',
  'verifier.ruleName.last_number': 'решает последнее число в тексте',
  'verifier.ruleName.no_number': 'нет ни рамки, ни числа',
  'verifier.ruleName.unclosed_box': 'последняя рамка не закрыта',
  'verifier.ruleName.empty_box': 'последняя рамка пуста',
  'verifier.ruleName.box_not_number': 'в последней рамке не одно число',
  'verifier.ruleName.zero_denominator': 'нулевой знаменатель',
  'verifier.ruleName.non_finite': 'значение слишком велико, чтобы быть конечным',
  'verifier.notice':
    'В случае 2 упомянут эталон 42, но последнее число — 41: верификатор не обмануть числом, стоящим раньше. В случае 3 побеждает исправленная (последняя) рамка. В случае 5 `1/0` недопустимо, а не бесконечность. Попробуйте `H2O` или `v1.5`: число никогда не начинается внутри слова.',

  // --- 2. Информативные группы ----------------------------------------------------------------
  'groups.title': '2. Когда группа информативна?',
  'groups.body':
    'При бинарных наградах центрированный групповой сигнал требует хотя бы одного успеха и одной неудачи. Рост $G$ помогает в средней полосе сложности, но не устраняет редкий успех при $p\\approx0$ и редкую неудачу при $p\\approx1$.\n\nГруппа из $G$ независимых ответов, каждый из которых верен с вероятностью $p$, информативна, если не все ответы верны и не все неверны:',
  'groups.formula':
    '$$P_{\\text{info}}(p, G) = 1 - p^{G} - (1-p)^{G}$$ $$\\operatorname{E}[D_n] = \\frac{n}{P_{\\text{info}}(p, G)}$$',
  'groups.formulaNote':
    'где $D_n$ — число промптов (групп), которые придётся выбрать, пока $n$ из них не окажутся информативными.',
  'groups.freeG': 'Свободный размер группы G (дополнительная кривая)',
  'groups.freeGHint': 'Целое число ≥ 1; рисуется пунктиром рядом с G = 2, 4, 8, 16.',
  'groups.p': 'Рассмотреть одно p',
  'groups.pHint': 'Вероятность из [0, 1]; отмечена на графике.',
  'groups.readout': 'P_info при p = {p}:',
  'groups.tableG': 'Размер группы G для таблицы',
  'groups.chartAria':
    'Линейный график вероятности информативной группы в зависимости от вероятности успеха одного ответа p для размеров групп {sizes}. Каждая кривая равна 0 при p = 0 и p = 1 и достигает максимума при p = 0.5; чем больше группа, тем выше и площе кривая.',
  'groups.chartTitle': 'P_info(p) для нескольких размеров группы',
  'groups.examplesTitle': 'Примеры (таблица из ноутбука)',
  'groups.examplesCaption': 'Вероятность информативной группы и ожидаемое число выборок на 100 информативных промптов, G = {g}.',
  'groups.col.p': 'p',
  'groups.col.pinfo': 'P_info, G={g}',
  'groups.col.draws': 'выборок на 100 информативных промптов',
  'groups.notice':
    'При $G = 8$ (таблица ноутбука) и $p = 0.5$ почти каждая группа информативна; при $p = 0.01$ информативна меньше чем одна группа из двенадцати, и 100 информативных промптов обходятся примерно в 1 300 выборок. При переходе от $G = 2$ к $G = 16$ средняя полоса ($0.1 \\le p \\le 0.9$) поднимается примерно на 0.5 или больше, а края около $p = 0.01$ и $p = 0.99$ — лишь примерно на 0.13: сколько сигнала несёт батч, решает отбор по сложности, а не только размер группы.',

  // --- 3. Преимущества и клиппинг -------------------------------------------------------------
  'advantages.title': '3. Групповые преимущества и клиппинг',
  'advantages.body':
    'Сначала центрируем и масштабируем награды, затем применяем клиппинг в духе PPO. Знак важен: верхняя и нижняя ветви клиппинга действуют по-разному.\n\nДля группы наград $r_1,\\dots,r_G$ преимущество — это награда минус среднее по группе, делённая (если масштабирование включено) на выборочное стандартное отклонение плюс $10^{-4}$, как в GRPOTrainer из TRL. Вклад каждого ответа в цель использует его отношение вероятностей $\\rho_i = \\pi_\\theta / \\pi_{\\text{old}}$:',
  'advantages.formula':
    '$$A_i = \\frac{r_i - \\bar r}{\\operatorname{std}(r) + 10^{-4}}$$ $$\\ell_i = \\min(\\rho_i A_i,\\; \\operatorname{clip}(\\rho_i,\\, 1-\\varepsilon_{\\text{low}},\\, 1+\\varepsilon_{\\text{high}})\\, A_i)$$',
  'advantages.rewards': 'Награды',
  'advantages.ratios': 'Отношения вероятностей ρ',
  'advantages.epsLow': 'ε_low',
  'advantages.epsHigh': 'ε_high',
  'advantages.scale': 'Делить на стандартное отклонение (scale=True)',
  'advantages.tableCaption': 'Награды, преимущества, отношения и член выбранного лосса для каждого ответа, по строке на ответ. Лосс: {loss}.',
  'advantages.col.row': '№',
  'advantages.col.reward': 'награда',
  'advantages.col.centered': 'центрированное',
  'advantages.col.standardized': 'стандартизированное',
  'advantages.col.ratio': 'отношение',
  'advantages.col.clip': 'клиппинг активен',
  'advantages.uses': 'Суррогат использует {which} преимущества.',
  'advantages.uses.standardized': 'стандартизированные',
  'advantages.uses.centered': 'центрированные',
  'advantages.sum': 'Сумма используемых преимуществ: {sum}',
  'advantages.sumOk': 'равна нулю (|сумма| < 1e-10), как утверждает ноутбук',
  'advantages.sumBad': 'не равна нулю',
  'advantages.chartX': 'отношение вероятностей ρ',
  'advantages.curve': 'A = {a}',
  'advantages.rowsFree': 'строки (клиппинг не активен)',
  'advantages.rowsClipped': 'строки (клиппинг активен)',
  'advantages.notice':
    'С числами из ноутбука у строки 1 $A>0$ и отношение 1.35 выше $1+\\varepsilon_{\\text{high}}$: её член плоский, и она перестаёт толкать отношение вверх. У строки 4 $A<0$ и отношение 0.70 ниже $1-\\varepsilon_{\\text{low}}$: тоже клиппинг. Строка 2 ($A>0$, отношение 0.85) лежит внутри $[1-\\varepsilon_{\\text{low}}, 1+\\varepsilon_{\\text{high}}]$: клиппинга нет, и градиент продолжает действовать. Строка с $A>0$ ниже $1-\\varepsilon_{\\text{low}}$ тоже не попадает под клиппинг: минимум оставляет более пессимистичную ветвь, без клиппинга. Увеличьте $\\varepsilon_{\\text{high}}$ больше 0.35 — и строка 1 вернётся (значения 0.28 из «clip higher» DAPO для этой строки мало).',

  'advantages.chartTitle': 'Потокенная целевая функция выбранного лосса в зависимости от отношения',
  'advantages.chartY.objective': 'потокенная цель J(ρ, A)',
  'advantages.chartY.weight': 'вес градиента w = dJ/d log ρ',
  'advantages.col.term.objective': 'J(ρ, A)',
  'advantages.col.term.weight': 'w(ρ, A)',
  'advantages.rows': 'строки',
  'advantages.chartAria':
    'Линейный график величины «{what}» для лосса {loss} в зависимости от отношения вероятностей для преимуществ {values}, с отмеченными отношениями {bounds}; строки таблицы отмечены точками: {rows}.',
  'advantages.loss': 'Лосс (TRL 1.9)',
  'advantages.loss.clip': 'клиппинг PPO (grpo, bnpo, dr_grpo, dapo)',
  'advantages.loss.delta': 'клиппинг PPO с delta (двусторонний)',
  'advantages.loss.cispo': 'CISPO',
  'advantages.loss.sapo': 'SAPO',
  'advantages.loss.vespo': 'VESPO',
  'advantages.view': 'Рисовать',
  'advantages.view.objective': 'целевую функцию J(ρ)',
  'advantages.view.weight': 'вес градиента dJ/d log ρ',
  'advantages.delta': 'delta',
  'advantages.param.sapoTemperaturePos': 'sapo_temperature_pos (A > 0)',
  'advantages.param.sapoTemperatureNeg': 'sapo_temperature_neg (A ≤ 0)',
  'advantages.param.vespoKPos': 'vespo_k_pos (A ≥ 0)',
  'advantages.param.vespoLambdaPos': 'vespo_lambda_pos (A ≥ 0)',
  'advantages.param.vespoKNeg': 'vespo_k_neg (A < 0)',
  'advantages.param.vespoLambdaNeg': 'vespo_lambda_neg (A < 0)',
  'advantages.bound.clip': 'границы клиппинга 1−ε_low, 1+ε_high',
  'advantages.bound.delta': 'границы клиппинга 1−ε_low, 1+ε_high и потолок delta',
  'advantages.bound.cispo': 'потолок — само ε_high',
  'advantages.bound.sapo': 'ρ = 1',
  'advantages.bound.vespo': 'ρ = 1',
  'advantages.reading':
    'Что нарисовано: потокенный градиент любого из этих лоссов равен $-w(\\rho, A)\\,\\nabla \\log \\pi_\\theta$ с некоторым весом $w$. «Целевая функция» рисует суррогат $J(\\rho, A)$, наклон которого по $\\log\\rho$ равен этому весу, $dJ/d\\log\\rho = w$; «вес градиента» рисует сам $w$. Для клиппинга PPO, delta и SAPO $J$ — это потокенный лосс TRL со знаком минус. Лоссы CISPO и VESPO, $-c\\,A \\log\\pi_\\theta$ с отсоединённым $c$, не являются функциями $\\rho$ (их значение зависит от $\\log\\pi_\\theta$), поэтому для них $J = A\\int_0^\\rho c(s)/s\\,ds$: суррогат с тем же градиентом, равный нулю при $\\rho = 0$, как и $\\rho A$.',
  'advantages.note.clip':
    'Клиппинг PPO в `grpo`, `bnpo`, `dr_grpo` и `dapo`: $-\\min(\\rho A, \\operatorname{clip}(\\rho, 1-\\varepsilon_{\\text{low}}, 1+\\varepsilon_{\\text{high}}) A)$. Там, где побеждает ветвь с клиппингом, кривая плоская и вес равен 0: токен перестаёт толкать.',
  'advantages.note.delta':
    '`delta` в TRL (двусторонний клиппинг из INTELLECT-2) ограничивает и ветвь без клиппинга: $\\min(\\min(\\rho, \\delta) A, \\operatorname{clip}(\\rho) A)$. При $A<0$ обычный клиппинг позволяет $\\rho A$ неограниченно падать с ростом $\\rho$; с delta кривая становится плоской после $\\rho = \\delta$, и токен, далеко ушедший от старой политики, не может задавить весь градиент.',
  'advantages.note.cispo':
    '**Ловушка CISPO в TRL.** Лосс равен $-\\operatorname{detach}(\\min(\\rho, \\varepsilon_{\\text{high}}))\\,A \\log\\pi_\\theta$: TRL использует `epsilon_high` как абсолютный потолок отношения, а не как $1+\\varepsilon_{\\text{high}}$. С 0.28 из ноутбука любое отношение выше 0.28 (то есть почти каждый токен) уходит под клиппинг до 0.28, и вес градиента каждого токена — около 0.28 A; в статье CISPO это значение 5.0. Поставьте ε_high = 0.28, затем 5 и сравните. В отличие от клиппинга PPO, токен под клиппингом сохраняет ненулевой вес: CISPO никогда не выключает градиент токена, а только ограничивает его.',
  'advantages.note.sapo':
    'SAPO заменяет жёсткий клиппинг гладким затвором: $-\\sigma(\\tau(\\rho - 1))\\,\\frac{4}{\\tau}\\,A$, где $\\tau$ = `sapo_temperature_pos` при $A>0$ и `sapo_temperature_neg` иначе. Его вес $4A\\,\\sigma(1-\\sigma)\\,\\rho$ максимален около $\\rho = 1$ и плавно спадает в обе стороны, а не обрывается в 0 на границе; чем больше $\\tau$, тем уже затвор.',
  'advantages.note.vespo':
    'VESPO взвешивает всю последовательность множителем $\\varphi(w) = e^{\\lambda + k \\log w - \\lambda w}$ (отсоединённым), где $w$ — произведение отношений её токенов; здесь токен один, и $w = \\rho$. $(k, \\lambda)$ — это `vespo_k_pos`, `vespo_lambda_pos` при $A \\ge 0$ и `vespo_k_neg`, `vespo_lambda_neg` при $A<0$. Вес — гладкий горб с максимумом при $\\rho = k/\\lambda$: последовательности, далеко ушедшие от старой политики в любую сторону, получают малый вес. Для вида «целевая функция» нужно $k>0$.',

  // --- 4. Редукции ----------------------------------------------------------------------------
  'reductions.title': '4. Одни и те же токенные члены, разные редукции',
  'reductions.body':
    'Исходный GRPO, Dr. GRPO и DAPO по-разному распределяют вес между ответами и токенами. Таблица выделяет геометрию знаменателей; это не эмпирический рейтинг качества.\n\nДля ответа $i$ длины $L_i$ в группе из $G$ каждый его токен получает вес',
  'reductions.formula':
    '$$w^{\\text{GRPO}}_{i} = \\frac{A_i}{G\\,L_i}$$ $$w^{\\text{Dr.GRPO}}_{i} = \\frac{\\tilde A_i}{G\\,L_{\\text{fixed}}}$$ $$w^{\\text{DAPO}}_{i} = \\frac{A_i}{\\sum_j L_j}$$',
  'reductions.formulaNote':
    'где $A_i$ — стандартизированное преимущество, а $\\tilde A_i = r_i - \\bar r$ — центрированное (Dr. GRPO не делит на стандартное отклонение). Именно эти веса применяет TRL для `loss_type` `grpo`, `dr_grpo` и `dapo`.',
  'reductions.rewards': 'Награды',
  'reductions.lengths': 'Длины ответов L (в токенах)',
  'reductions.fixed': 'Фиксированная длина для Dr. GRPO',
  'reductions.lengthsHint': 'Положительные целые через запятую, по одному на награду.',
  'reductions.tableCaption': 'Суммарный вес каждого ответа при каждой редукции и сумма модулей весов токенов.',
  'reductions.col.reduction': 'редукция',
  'reductions.col.response': 'ответ_{n}',
  'reductions.col.abs': 'сумма модулей весов токенов',
  'reductions.chartTitle': 'Вес каждого токена, ответ за ответом',
  'reductions.chartX': 'токен (ответ.позиция)',
  'reductions.chartY': 'вес токена',
  'reductions.chartAria':
    'Ступенчатый график веса каждого из {tokens} {tokens#tokenOf} при исходном GRPO, Dr. GRPO и DAPO; длины ответов {lengths}. При исходном GRPO у коротких ответов веса токенов больше.',
  'reductions.tokenCaption': 'Вес одного токена каждого ответа при каждой редукции.',
  'reductions.notice':
    'В исходном GRPO каждый ответ несёт суммарный вес $A_i/G$ независимо от длины. С наградами 1, 0, 1 и длинами 2, 5, 8 из ноутбука каждый из 2 токенов ответа 1 поэтому весит вчетверо больше, чем каждый из 8 токенов ответа 3: короткие верные ответы толкаются сильнее, а длинные неверные наказываются слабее в пересчёте на токен. Dr. GRPO и DAPO дают всем токенам группы один масштаб, так что суммарный вклад ответа растёт с его длиной.',
  'reductions.name.original_grpo': 'original_grpo',
  'reductions.name.dr_grpo': 'dr_grpo',
  'reductions.name.dapo': 'dapo',

  'reductions.normTitle': 'Нормировка каждого типа лосса TRL 1.9',
  'reductions.slider': 'Длина L ответа 1 (токены)',
  'reductions.normCaption':
    'На что каждый тип лосса делит потокенные лоссы ответа 1 (L = {length} {length#token}) в этом батче: N = {n} {n#answer}, всего {total} {total#token}, max_completion_length = {max} (фиксированная длина выше). Полный вес ответа равен L / D.',
  'reductions.col.lossType': 'loss_type',
  'reductions.col.normalizer': 'нормировка D',
  'reductions.col.d': 'D при L = {length}',
  'reductions.col.token': 'вес одного токена, 1/D',
  'reductions.col.completion': 'вес ответа, {length}/D',
  'reductions.norm.grpo': '$N \\cdot L_i$: среднее по последовательности, затем по ответам',
  'reductions.norm.bnpo': 'число токенов батча $\\sum_j L_j$',
  'reductions.norm.dr_grpo': '$N \\cdot$ `max_completion_length`',
  'reductions.norm.dapo': 'число активных токенов батча $\\sum_j L_j$',
  'reductions.norm.cispo': 'как у dapo',
  'reductions.norm.sapo': 'как у grpo',
  'reductions.norm.luspo': '$N$: каждый ответ учитывается $L_i$ раз (прочтение trl#6654, `docs/trl.md`)',
  'reductions.norm.vespo': 'как у dapo',

  // --- 5. Конечная политика -------------------------------------------------------------------
  'finite.title': '5. Точная конечная политика: награда может расти, пока носитель сужается',
  'finite.body':
    'Маленькая категориальная политика допускает точные градиенты. Она показывает принципиальную возможность: pass@1 и ожидаемая награда могут расти, а энтропия и покрытие альтернатив — сокращаться.\n\nПолитика — softmax над несколькими «модами» ответа; несколько из них успешны (награда 1) и имеют неравные начальные вероятности. Каждый шаг — точный градиентный подъём со скоростью обучения $\\eta$ по',
  'finite.formula':
    '$$J(\\theta) = \\sum_m \\pi_\\theta(m)\\, r(m) + \\beta_{\\text{ent}}\\, H(\\pi_\\theta)$$ $$H(\\pi) = -\\sum_m \\pi(m)\\log \\pi(m)$$ $$\\text{pass@}k = 1 - (1 - m_{\\text{succ}})^{k}$$',
  'finite.beta': 'β_entropy (бонус за энтропию)',
  'finite.lr': 'Скорость обучения η',
  'finite.steps': 'Число шагов',
  'finite.stepsHint': 'График шагов от 0 до этого числа (в ноутбуке — 60).',
  'finite.at': 'Вероятности мод на шаге',
  'finite.chartAria':
    'Линейный график по шагам точного обновления от 0 до {steps}: ожидаемая награда меняется от {r0} до {r1}, энтропия — от {h0} до {h1}, pass@4 — от {p0} до {p1}.',
  'finite.tableCaption': 'Строки из ноутбука: шаги 0, 9, 19, 39 и 60.',
  'finite.col.step': 'шаг',
  'finite.col.reward': 'ожидаемая награда',
  'finite.col.entropy': 'энтропия',
  'finite.col.pass': 'pass@4',
  'finite.modesTitle': 'Вероятность каждой моды на шаге {step}',
  'finite.modesAria':
    'Столбчатая диаграмма вероятностей каждой из {n} мод ответа на шаге {step} рядом с шагом 0; успешные моды: {successful}.',
  'finite.modesCaption': 'Вероятность каждой моды на шаге 0 и на шаге {step}.',
  'finite.col.mode': 'мода',
  'finite.col.successful': 'успешная',
  'finite.col.p0': 'шаг 0',
  'finite.col.pAt': 'шаг {step}',
  'finite.barSuccess': 'шаг {step}, успешная мода',
  'finite.barFail': 'шаг {step}, неуспешная мода',
  'finite.mode': 'мода {n}',
  'finite.modeSuccess': 'мода {n} ✓',
  'finite.successMass': 'Успешная масса на шаге {step}: {mass}; крупнейшая успешная мода держит {share} от неё.',
  'finite.notice':
    'При $\\beta_{\\text{ent}} = 0$ и $\\eta = 0.18$ ожидаемая награда растёт, энтропия падает, а успешная масса собирается в одной успешной моде: политика чаще отвечает верно, но всё меньшим числом разных путей. Передвигайте шаг, чтобы увидеть, как гаснут другие успешные моды; увеличьте $\\beta_{\\text{ent}}$, чтобы сохранить их ценой части награды.\n\n`pass_at_4` в таблице этого сужения не покажет: здесь он равен $1 - (1 - m_{\\text{succ}})^4$ и зависит только от всей успешной массы, а не от того, сколько успешных мод её держат, поэтому он растёт к 1 вместе с наградой. Сужение видно на графике мод и в доле самой большой успешной моды выше. (Раздел 8 считает pass@k по промптам, и там промпт, который политика перестала решать, его снижает.)',
  'plural.step': 'шаг|шага|шагов|шага',
  'finite.entropy.title': 'Почему падает энтропия: точное изменение энтропии на каждом шаге и его предсказание первого порядка −η·Cov(log π, π·A)',
  'finite.entropy.y': 'изменение энтропии за шаг',
  'finite.entropy.exact': 'точное изменение H(πₜ₊₁) − H(πₜ)',
  'finite.entropy.predicted': 'первый порядок −η·Cov(log π, π·A)',
  'finite.entropy.colExact': 'точное изменение энтропии за шаг',
  'finite.entropy.colDifference': 'разность (точное − первый порядок)',
  'finite.entropy.aria': 'Линейный график по шагам от 0 до {last}: точное изменение энтропии на каждом шаге (от {e0} до {e1}) и его предсказание первого порядка −η·Cov(log π, π·A) (от {p0} до {p1}); они расходятся не больше чем на {diff}.',
  'finite.entropy.ariaEmpty': 'Линейный график без шагов: задайте число шагов больше 0.',
  'finite.entropy.none': 'Шагов нет, и сравнивать нечего.',
  'finite.entropy.still': 'При η = 0 политика не меняется: энтропия на каждом шаге остаётся равной {h}.',
  'finite.entropy.match': 'За {n} {n#step} предсказание первого порядка −η·Cov(log π, π·A) каждый раз совпадает по знаку с точным изменением энтропии и отличается от него не больше чем на {diff} (наибольшее изменение за шаг — {change})',
  'finite.entropy.matchSome': 'За {n} {n#step} предсказание первого порядка −η·Cov(log π, π·A) совпадает по знаку с точным изменением энтропии на {k} из них и отличается от него не больше чем на {diff} (наибольшее изменение за шаг — {change})',
  'finite.entropy.fall': '; сильнее всего её снижает мода {mode}, {kind}: {amount} из предсказанных {total} за весь прогон.',
  'finite.entropy.rise': '; за весь прогон она растёт (предсказано {total}), и сильнее всего её поднимает мода {mode}, {kind}: {amount}.',
  'finite.entropy.end': '.',
  'finite.entropy.kind.confidentPositive': 'уверенная (вероятнее типичной exp(−H)) и с положительным преимуществом',
  'finite.entropy.kind.confidentNegative': 'уверенная (вероятнее типичной exp(−H)), но с отрицательным преимуществом',
  'finite.entropy.kind.rarePositive': 'редкая (менее вероятная, чем типичная exp(−H)), но с положительным преимуществом',
  'finite.entropy.kind.rareNegative': 'редкая (менее вероятная, чем типичная exp(−H)) и с отрицательным преимуществом',

  // --- 6-9 (в следующем выпуске) -----------------------------------------------------------------
  'rl-loop.title': '6. Полный авторегрессионный цикл RLVR/GRPO',
  'rl-loop.body':
    'Теперь небольшая каузальная языковая модель собирает группы ответов под замороженной старой политикой. Верификатор возвращает разложенные награды, текущая политика обновляется, а отдельная референсная политика остаётся доступной для KL-диагностики. Оценка использует свежую генерацию на train- и held-out-промптах.',
  'updates.title': '7. Что происходило внутри обновлений?',
  'updates.body':
    'Одной кривой недостаточно. Сравниваем точность, энтропию, долю информативных групп и распределение отношений вероятностей.',
  'coverage.title': '8. Средняя точность скрывает покрытие',
  'coverage.body':
    'Утверждение ноутбука: после RL средняя точность на train-промптах выше, но успех сосредоточен на меньшем числе промптов. Строки под графиками говорят, подтверждает ли это показанный запуск. Затем рассматриваем одну свежую группу и проверяем, что журнал содержит ответ, награду, статус верификатора, длину и версию генератора.',
  'real-model.title': '9. Необязательная ветвь Qwen3-0.6B + TRL',
  'real-model.body':
    'Эта ветвь фиксирует снимок зависимостей и делает явными неоднозначные параметры GRPOConfig. Ей нужны доступ к сети и подходящий ускоритель. Релизная проверка её не запускала, поэтому ноутбук не делает утверждений о времени работы, памяти или качестве Qwen3.',
  ...training,
  ...trl,
  ...form,
  ...compare,
  ...lessons,
  ...teacher,
  ...coreMessages,
  ...recovery,
  ...verdicts,
  ...inspector,
};
