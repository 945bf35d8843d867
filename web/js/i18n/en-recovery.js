// English strings of the reader's ways out: offline updates that complete or are refused, the
// comparison link's budget and confirmation, the run library's checks of its own records.
export default {
  'setup.where.offline.withdrawn': 'no: the site no longer serves its offline copy (sw.js), so the saved copy was removed; the next visit loads from the network',
  'setup.where.offline.refused': 'a new version could not be saved (a file did not download or did not match its build), so this version stays; it is tried again on the next visit',
};
