/** Larger files are skipped by both engines: reading one whole would cost too much memory. */
export const maxSearchedFileMiB = 64;
export const maxSearchedFileBytes = maxSearchedFileMiB * 1024 * 1024;
