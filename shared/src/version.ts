/** Atelier's release, recorded in backups and exports. Raised with every release tag. */
export const ATELIER_VERSION = "0.1.0";
