// Sections 6-9 until their live widgets land (next release): the notebook's explanation and a
// plain note saying what arrives. Each section keeps its own module so part 2 replaces one file.
import { h } from '../dom.js';

export function pendingSection({ id, number }) {
  return {
    id,
    number,
    titleKey: `${id}.title`,
    bodyKey: `${id}.body`,
    needsCore: false,
    schema: {},
    mount(host, ctx) {
      host.append(ctx.rich(ctx.t(`${id}.body`)));
      host.append(
        h(
          'div',
          { class: 'callout callout-next', role: 'note' },
          h('p', { class: 'callout-title', text: ctx.t('common.nextTitle') }),
          h('p', { text: ctx.t('common.next') }),
        ),
      );
      ctx.rendered();
      return {};
    },
  };
}
