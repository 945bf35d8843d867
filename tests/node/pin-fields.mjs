// The history columns added after pin.test.mjs's historyAll was pinned, each list hashed on its
// own there, so that adding one shows that nothing computed before moved. Shared by pin.test.mjs
// and entropy-mechanism.test.mjs, which re-derives historyAll.
export const LATER_FIELDS = ['correctnessInformativeFraction']; // issue 24: the informative groups' split
export const LENGTH_FIELDS = ['meanLengthCorrect', 'meanLengthIncorrect']; // issue 23: Dr. GRPO's length bias
/** A history row without the later columns: what historyAll hashes. */
export const withoutLater = (row) => Object.fromEntries(Object.entries(row).filter(([key]) => !LATER_FIELDS.includes(key) && !LENGTH_FIELDS.includes(key)));
/** The row's columns of one list, in its order (a missing one is undefined: JSON leaves it out). */
export const fieldsOf = (fields) => (row) => Object.fromEntries(fields.map((key) => [key, row[key]]));
