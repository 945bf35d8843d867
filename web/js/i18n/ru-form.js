// Русские строки формы конфигурации раздела 6 (training/config-form.js); входят в ru.js.
export default {
  'train.group.notebook': 'Настройки ноутбука: PROFILE, SEED и его GRPOConfig',
  'train.moreSettings': 'Остальные настройки (свёрнуты по группам)',
  'train.groupCount.none': 'всё по умолчанию (полей: {total})',
  'train.groupCount.changed': 'изменено {changed} из {total}',
  'train.loopTitle': 'Что делает цикл',
};
