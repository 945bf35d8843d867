// English strings of the reader's ways out: offline updates that complete or are refused, the
// comparison link's budget and confirmation, the run library's checks of its own records.
export default {
  'setup.where.offline.withdrawn': 'no: the site no longer serves its offline copy (sw.js), so the saved copy was removed; the next visit loads from the network',
  'setup.where.offline.refused': 'a new version could not be saved (a file did not download or did not match its build), so this version stays; it is tried again on the next visit',
  'library.quarantined': 'Records of the run library set aside, not listed and not used: {n} (a page of this site wrote what this one cannot read). {records}.{more} "Clear the library" removes them.',
  'library.record': '«{label}»: {message}',
  'library.reason': '{message}',
  'library.more': ' And {n} more.',
  'library.notKept': 'The run «{name}» is shown but not kept in the run library: it is {size} MiB, and the library keeps at most {max} MiB. Export it to keep it.',
  'library.failed.version': 'The run library cannot be read: its database is of a version this page does not know. "Reset the library" deletes it and starts an empty one.',
  'library.failed.schema': 'The run library cannot be read: its database does not have the shape this page writes. "Reset the library" deletes it and starts an empty one.',
  'library.failed.blocked': 'The run library could not be reset: another tab holds it open. Close the other tabs of this site, then reset again.',
  'library.failed.unavailable': 'The run library is not available here: {message}',
  'library.reset': 'Reset the library',
};
